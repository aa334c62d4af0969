/**
 * Odd but plausible configurations through the SvelteKit hook. `basePath: "/"`
 * was read three ways: core mounted the routes at `/auth`, the hook (and core's
 * `createActionURL`) at the root, so the hook sent the app's own `/signin` and
 * `/session` pages to core (a 404 "UnknownAction") and `/auth/...` to the app:
 * nothing worked, and nothing said why. It is a configuration error now, found
 * at the first request and named in the log.
 */
import { afterEach, describe, expect, it } from "vitest"
import { InvalidConfiguration } from "@tessera/core/errors"
import { SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { ORIGIN, testConfig, useKitRuntime } from "../helpers/config.js"
import { createEvent, runHandle } from "../helpers/kit.js"

afterEach(() => setKitRuntime())

describe("basePath at the root", () => {
  it.each(["/", "//"])(
    "basePath %j is an InvalidConfiguration, logged, on every path",
    async (basePath) => {
      useKitRuntime({ NODE_ENV: "production" })
      const config = testConfig({ basePath })
      const { handle } = SvelteKitAuth(config)
      for (const path of ["/auth/session", "/session", "/signin"]) {
        const event = createEvent(new Request(`${ORIGIN}${path}`))
        const { response, resolved } = await runHandle(handle, event)
        const body = await response.text()
        expect(body, path).not.toContain("UnknownAction")
        if (!resolved) expect(response.status, path).toBe(500)
        await expect(event.locals.auth(), path).rejects.toBeInstanceOf(InvalidConfiguration)
      }
      expect(config.loggedErrors.some((e) => e instanceof InvalidConfiguration)).toBe(true)
      expect(config.loggedErrors.map((e) => e.message).join("\n")).toMatch(/basePath/)
    },
  )
})
