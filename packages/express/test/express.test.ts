/**
 * What is particular to Express: `trust proxy` decides which forwarding
 * headers count, the mount path becomes the base path, body parsers of every
 * kind in front, and requests ExpressAuth leaves to the rest of the app.
 */
import { afterEach, describe, expect, test } from "vitest"
import express from "express"
import type { AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { HttpBrowser, integrationConfig, integrationUsers, sendRaw } from "@tessera/testing"
import { express4, startApp, type AppOptions } from "./harness.js"

/** The suite's credentials configuration, quiet: some tests cause errors on purpose. */
const credentialsConfig = (extra: Partial<AuthConfig> = {}) =>
  integrationConfig({ logger: { error: () => {} }, ...extra })

const running: { stop(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop()))
})

async function start(config: AuthConfig, options: AppOptions = {}) {
  const app = await startApp(() => config, options)
  running.push(app)
  return app
}

const alice = { username: "alice", password: integrationUsers.alice.password }

describe("trust proxy", () => {
  const proxied = { "x-forwarded-host": "app.example.test", "x-forwarded-proto": "https" }

  test("when Express trusts the proxy, its X-Forwarded-Host and -Proto make the URL", async () => {
    const app = await start(credentialsConfig(), { trustProxy: true })
    const b = new HttpBrowser(app.origin, "/auth", proxied)
    const signIn = await b.signInWithCredentials(alice, { callbackUrl: "/after" })
    expect(signIn.headers.get("location")).toBe("https://app.example.test/after")
    // https: the secure cookie names and attributes.
    expect(b.jar.has("__Secure-tessera.session-token")).toBe(true)

    // getSession sees the request as Express does: https through the proxy, so the secure cookie counts.
    expect((await b.request("/me")).status).toBe(200)
    const direct = new HttpBrowser(app.origin)
    for (const [name, value] of b.jar) direct.jar.set(name, value)
    expect((await direct.request("/me")).status).toBe(401)
  })

  test("when it does not, the same headers change nothing", async () => {
    const app = await start(credentialsConfig())
    const b = new HttpBrowser(app.origin)
    const signIn = await b.signInWithCredentials(alice, { callbackUrl: "/after", headers: proxied })
    expect(signIn.headers.get("location")).toBe(`${app.origin}/after`)
    expect(b.jar.has("tessera.session-token")).toBe(true)
    expect((await b.request("/me", { headers: proxied })).status).toBe(200)
  })
})

describe("base path", () => {
  for (const [name, options] of [
    ["Express 5 at /api/auth", { mount: "/api/auth" }],
    ["Express 5 at /api/auth/*splat", { mount: "/api/auth/*splat" }],
    ["Express 4 at /api/auth/*", { mount: "/api/auth/*", express: express4 }],
  ] as const) {
    test(`${name}: the routes are served where the middleware is mounted`, async () => {
      const app = await start(credentialsConfig(), options)
      const b = new HttpBrowser(app.origin, "/api/auth")
      const page = await (await b.request("/api/auth/signin")).text()
      expect(page).toContain(`action="${app.origin}/api/auth/callback/credentials"`)
      const signIn = await b.signInWithCredentials(alice)
      expect(signIn.status).toBe(302)
      expect((await b.session())?.user?.name).toBe("Alice")
    })
  }

  test("an explicit basePath wins, and the middleware can be mounted for every path", async () => {
    const app = await start(credentialsConfig({ basePath: "/login" }), {
      mount: "/",
      before: (app) => app.get("/hello", (_req, res) => res.send("hello")),
    })
    const b = new HttpBrowser(app.origin, "/login")
    expect((await b.request("/login/csrf")).status).toBe(200)
    expect(await (await b.request("/hello")).text()).toBe("hello")
    expect((await b.request("/auth/csrf")).status).toBe(404)
  })

  test("paths under the mount that are no auth action go on to the app", async () => {
    const app = await start(credentialsConfig(), {
      after: (app) => app.get("/auth/help", (_req, res) => res.send("help")),
    })
    const b = new HttpBrowser(app.origin)
    expect(await (await b.request("/auth/help")).text()).toBe("help")
    // Express's own 404, not core's JSON one.
    const missing = await b.request("/auth/nothing-here")
    expect(missing.status).toBe(404)
    expect(missing.headers.get("content-type")).toMatch(/html/)
  })

  test("a mount path with a parameter: each value is served at its own path, however many", async () => {
    const app = await start(credentialsConfig(), { mount: "/:tenant/auth" })
    const statuses = new Set<number>()
    for (let i = 0; i < 40; i++) {
      statuses.add((await new HttpBrowser(app.origin).request(`/t${i}/auth/csrf`)).status)
    }
    expect([...statuses]).toEqual([200])
  })
})

describe("request bodies", () => {
  test("express.text() and express.raw() in front: the body is handed on as it was", async () => {
    for (const parser of [express.text({ type: "*/*" }), express.raw({ type: "*/*" })]) {
      const app = await start(credentialsConfig(), { before: (app) => app.use(parser) })
      const b = new HttpBrowser(app.origin)
      expect((await b.signInWithCredentials(alice)).status).toBe(302)
      expect((await b.session())?.user?.name).toBe("Alice")
    }
  })

  test("express.urlencoded({ extended: true }) nests fields; they reach core under their names", async () => {
    const seen: Record<string, unknown>[] = []
    const config = credentialsConfig({
      providers: [
        Credentials({
          credentials: { username: {}, password: {} },
          authorize: (credentials) => {
            seen.push(credentials)
            return { id: "1", name: "Alice" }
          },
        }),
      ],
    })
    const app = await start(config, { bodyParsers: true })
    const b = new HttpBrowser(app.origin)
    await b.signInWithCredentials({ username: "alice", password: "p", "extra[nested]": "1" })
    expect(seen[0]).toMatchObject({ username: "alice", password: "p", "extra[nested]": "1" })
  })
})

describe("malformed requests and configuration", () => {
  test("an absolute-form request target: the URL is built from Host, as Express routes by it", async () => {
    const app = await start(credentialsConfig())
    const host = new URL(app.origin).host
    const response = await sendRaw(app.origin, {
      target: "http://attacker.test/auth/signin",
      headers: { host },
    })
    expect(response.status).toBe(200)
    expect(response.body).not.toContain("attacker.test")
    expect(response.body).toContain(`action="http://${host}/auth/callback/credentials"`)
  })

  test("a request with no usable Host is refused with 400", async () => {
    const app = await start(credentialsConfig())
    const response = await sendRaw(app.origin, { target: "/auth/csrf", headers: { host: "a b" } })
    expect(response.status).toBe(400)
    expect(JSON.parse(response.body)).toMatchObject({ error: "InvalidRequest" })
  })

  test("a malformed AUTH_URL is an error for the app's error handler, not a fallback to Host", async () => {
    const app = await start(credentialsConfig())
    const previous = process.env.AUTH_URL
    process.env.AUTH_URL = "not a url"
    try {
      const response = await sendRaw(app.origin, {
        target: "/auth/signin",
        headers: { host: "attacker.test" },
      })
      expect(response.status).toBe(500)
      expect(response.body).not.toContain("attacker.test")
    } finally {
      if (previous === undefined) delete process.env.AUTH_URL
      else process.env.AUTH_URL = previous
    }
  })
})

describe("getSession", () => {
  test("applies the cookies core asks for: a refreshed session cookie", async () => {
    // updateAge 0: every read re-issues the session cookie (sliding expiry).
    const app = await start(credentialsConfig({ session: { updateAge: 0 } }))
    const b = new HttpBrowser(app.origin)
    await b.signInWithCredentials(alice)
    const before = b.jar.get("tessera.session-token")
    await new Promise((resolve) => setTimeout(resolve, 1100)) // a new `iat`, a new token
    const response = await b.request("/me")
    expect(response.status).toBe(200)
    const refreshed = response.headers
      .getSetCookie()
      .filter((line) => line.startsWith("tessera.session-token="))
    expect(refreshed).toHaveLength(1)
    expect(b.jar.get("tessera.session-token")).not.toBe(before)
    expect((await b.request("/me")).status).toBe(200)
  })

  test("reads the same configuration object the middleware uses, with AUTH_SECRET from the environment", async () => {
    const { secret, ...withoutSecret } = credentialsConfig()
    const previous = process.env.AUTH_SECRET
    process.env.AUTH_SECRET = secret as string
    try {
      const app = await start(withoutSecret as AuthConfig)
      const b = new HttpBrowser(app.origin)
      await b.signInWithCredentials(alice)
      expect((await b.request("/me")).status).toBe(200)
    } finally {
      if (previous === undefined) delete process.env.AUTH_SECRET
      else process.env.AUTH_SECRET = previous
    }
  })
})
