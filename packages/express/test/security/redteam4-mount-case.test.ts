/**
 * Attack: Express routes case-insensitively by default, so `app.use("/api/auth", ...)`
 * also runs for `/API/auth/...`, and the mount path ExpressAuth learns from the
 * request is spelt as the client chose. Eight spellings sent before anyone signs in
 * (a fresh process, a new serverless instance) must not use up the paths it learns
 * and leave the real `/api/auth` routes to the app's 404.
 */
import { afterAll, beforeAll, expect, test } from "vitest"
import { HttpBrowser, integrationConfig } from "@tessera/testing"
import { express4, startApp } from "../harness.js"

const apps: Awaited<ReturnType<typeof startApp>>[] = []
beforeAll(async () => {
  apps.push(await startApp(() => integrationConfig(), { mount: "/api/auth" }))
  apps.push(await startApp(() => integrationConfig(), { mount: "/api/auth/*", express: express4 }))
})
afterAll(() => Promise.all(apps.map((app) => app.stop())))

const spellings = ["/API/auth", "/Api/auth", "/aPi/auth", "/apI/auth", "/api/Auth", "/api/aUth"]
const more = ["/api/auTh", "/api/autH", "/API/AUTH", "/Api/Auth"]

test("case variants of the mount path do not crowd out the real one", async () => {
  for (const app of apps) {
    for (const prefix of [...spellings, ...more]) {
      await new HttpBrowser(app.origin).request(`${prefix}/csrf`)
    }
    const b = new HttpBrowser(app.origin, "/api/auth")
    const response = await b.request("/api/auth/csrf")
    expect(response.status).toBe(200)
    const page = await (await b.request("/api/auth/signin")).text()
    expect(page).toContain(`action="${app.origin}/api/auth/callback/credentials"`)
  }
})
