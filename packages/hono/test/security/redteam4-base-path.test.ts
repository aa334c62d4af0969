/**
 * `url` with a path and no `basePath`: core serves the routes under that path,
 * so authHandler() registered for every path must hand exactly those to core,
 * and leave `/auth/...` to the app. It went by `basePath ?? "/auth"` alone.
 */
import { afterAll, beforeAll, expect, test } from "vitest"
import { HttpBrowser, integrationConfig } from "@tessera/testing"
import { startApp } from "../harness.js"

let app: Awaited<ReturnType<typeof startApp>>
const warnings: string[] = []
beforeAll(async () => {
  app = await startApp(
    (origin) =>
      integrationConfig({
        url: `${origin}/api/auth`,
        logger: { warn: (code: string) => void warnings.push(code) },
      }),
    {
      mount: "*",
      after: (hono) => hono.get("/auth/*", (c) => c.text("the app's own page")),
    },
  )
})
afterAll(() => app.stop())

test("the routes are where core builds its URLs; /auth/... is the app's", async () => {
  const b = new HttpBrowser(app.origin, "/api/auth")
  expect((await b.request("/api/auth/csrf")).status).toBe(200)
  const page = await (await b.request("/api/auth/signin")).text()
  expect(page).toContain(`action="${app.origin}/api/auth/callback/credentials"`)
  expect(await (await b.request("/auth/session")).text()).toBe("the app's own page")
  // A base path that only the URL gives is one setting, not two that agree.
  expect(warnings.filter((code) => code.startsWith("env-url-basepath"))).toEqual([])
})
