/**
 * Red team 14: ExpressAuth learns the path it is mounted at from the request
 * (`req.baseUrl`) and keeps a configuration per path. Under a mount path with
 * a parameter (`app.use("/:tenant/auth", ...)`, or a router mounted at
 * `/:tenant`) each tenant is another path. The cache stopped learning after
 * eight, so a client that sent requests for eight made-up tenants first (a
 * fresh process, a new serverless instance) turned the auth routes off for
 * every tenant that came later: their sign-in pages, CSRF tokens and sign-ins
 * went to the app's 404 until a restart. The paths are now kept least recently
 * used first out: a made-up path can cost a cache entry, never a tenant its routes,
 * and the configuration's warnings are logged once, not once per made-up path.
 */
import express5 from "express"
import { afterEach, expect, test } from "vitest"
import { HttpBrowser, integrationConfig, integrationUsers } from "@tessera/testing"
import type { AuthConfig } from "@tessera/core"
import { ExpressAuth } from "../../src/index.js"
import { express4, startApp } from "../harness.js"

const running: { stop(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop()))
})

const alice = { username: "alice", password: integrationUsers.alice.password }

async function signsInAt(origin: string, tenant: string): Promise<void> {
  const browser = new HttpBrowser(origin, `/${tenant}/auth`)
  expect((await browser.request(`/${tenant}/auth/csrf`)).status).toBe(200)
  const page = await (await browser.request(`/${tenant}/auth/signin`)).text()
  expect(page).toContain(`action="${origin}/${tenant}/auth/callback/credentials"`)
  const signedIn = await browser.signInWithCredentials(alice)
  expect(signedIn.status).toBe(302)
  expect((await browser.session())?.user?.name).toBe("Alice")
}

test.each([
  ["Express 5, app.use('/:tenant/auth')", express5, false],
  ["Express 4, app.use('/:tenant/auth')", express4, false],
  ["Express 5, a router at /:tenant", express5, true],
])(
  "%s: made-up tenants sent first do not take the routes from later ones",
  async (_, express, nested) => {
    let config: AuthConfig | undefined
    const warnings: string[] = []
    const logger = { warn: (code: string) => void warnings.push(code) }
    const app = await startApp(() => (config = integrationConfig({ logger })), {
      express,
      ...(nested
        ? {
            before: (outer) => {
              // ExpressAuth at /auth inside a router at /:tenant: req.baseUrl is /<tenant>/auth.
              const router = express.Router()
              router.use("/auth", ExpressAuth(config!))
              outer.use("/:tenant", router)
            },
          }
        : { mount: "/:tenant/auth" }),
    })
    running.push(app)
    await signsInAt(app.origin, "acme")
    for (let i = 0; i < 40; i++)
      await new HttpBrowser(app.origin).request(`/made-up-${i}/auth/csrf`)
    await signsInAt(app.origin, "globex")
    await signsInAt(app.origin, "acme")
    // The configuration's warning (trustHost with no allowedHosts) is said once, not once per path.
    expect(warnings.filter((code) => code === "trust-host-unbounded")).toHaveLength(1)
  },
)
