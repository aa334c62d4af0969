/**
 * Where the auth routes are, as the hook and core each read the configuration.
 * Core takes the path of `url` (as of `AUTH_URL`) as the base path when no
 * `basePath` is set; the hook must send exactly those paths to core: otherwise
 * core's own pages post to paths the app answers, and the app's `/auth/...`
 * pages go to core.
 */
import { afterEach, describe, expect, it } from "vitest"
import { SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { ORIGIN, testConfig, useKitRuntime } from "../helpers/config.js"
import { createEvent, runHandle } from "../helpers/kit.js"

afterEach(() => setKitRuntime())

describe("url with a path and no basePath", () => {
  it.each([`${ORIGIN}/api/auth`, `${ORIGIN}/api/auth/`])(
    "url %s: the hook sends /api/auth/* to core and /auth/* to the app",
    async (url) => {
      useKitRuntime({ NODE_ENV: "production" })
      const { handle } = SvelteKitAuth(testConfig({ url, trustHost: false }))
      const csrf = await runHandle(handle, createEvent(new Request(`${ORIGIN}/api/auth/csrf`)))
      expect(csrf.resolved).toBe(false)
      expect(csrf.response.status).toBe(200)
      const page = await runHandle(handle, createEvent(new Request(`${ORIGIN}/api/auth/signin`)))
      expect(await page.response.text()).toContain(
        `action="${ORIGIN}/api/auth/callback/credentials"`,
      )
      const app = await runHandle(handle, createEvent(new Request(`${ORIGIN}/auth/session`)))
      expect(app.resolved).toBe(true)
    },
  )
})
