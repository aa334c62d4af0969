/**
 * What is particular to Hono: `authUser` (session plus the JWT or the stored
 * user), `getAuthUser` on public routes, `verifyAuth`'s 401 as an
 * `HTTPException`, the registered path as base path, bodies read by an
 * earlier middleware, and `app.request()` with no server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest"
import { HTTPException } from "hono/http-exception"
import type { AuthConfig } from "@tessera/core"
import { SqlAdapter } from "@tessera/sql"
import {
  completeOidcLogin,
  HttpBrowser,
  integrationConfig,
  integrationUsers,
  localOidcProvider,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { getAuthUser, verifyAuth, type AuthUser } from "../src/index.js"
import { honoApp, startApp, type AppOptions } from "./harness.js"

const alice = { username: "alice", password: integrationUsers.alice.password }

/** The suite's credentials configuration, quiet: some tests cause errors on purpose. */
const credentialsConfig = (extra: Partial<AuthConfig> = {}) =>
  integrationConfig({ logger: { error: () => {} }, ...extra })

const running: { stop(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop()))
})

async function start(
  config: AuthConfig | ((origin: string) => Promise<AuthConfig>),
  options: AppOptions = {},
) {
  const app = await startApp(typeof config === "function" ? config : () => config, options)
  running.push(app)
  return app
}

/** Registers GET /whoami (behind verifyAuth) answering the whole authUser. */
const whoami: AppOptions["after"] = (app) => {
  app.use("/whoami", verifyAuth())
  app.get("/whoami", (c) => c.json(c.get("authUser")))
}

describe("authUser", () => {
  test("JWT sessions: the session and the token", async () => {
    const app = await start(credentialsConfig(), { after: whoami })
    const b = new HttpBrowser(app.origin)
    await b.signInWithCredentials(alice)
    const authUser = (await (await b.request("/whoami")).json()) as AuthUser
    expect(authUser.session.user).toMatchObject({ name: "Alice", email: "alice@example.test" })
    expect(authUser.token).toMatchObject({ sub: "1", name: "Alice", email: "alice@example.test" })
    expect(authUser.user).toBeUndefined()
  })

  test("a session callback of the app's shapes the session; the token still comes along", async () => {
    const config = credentialsConfig({
      callbacks: { session: ({ session, token }) => ({ ...session, userId: token.sub }) },
    })
    const app = await start(config, { after: whoami })
    const b = new HttpBrowser(app.origin)
    await b.signInWithCredentials(alice)
    const authUser = (await (await b.request("/whoami")).json()) as AuthUser
    expect(authUser.session).toMatchObject({ userId: "1" })
    expect(authUser.token?.sub).toBe("1")
    // The same callback shapes /auth/session, with nothing of the capture in it.
    expect(await b.session()).toEqual(authUser.session)
  })

  describe("database sessions", () => {
    let idp: OidcProviderServer
    const adapter = SqlAdapter.sqlite(":memory:")
    beforeAll(() => adapter.migrate())
    afterAll(async () => {
      await Promise.all([idp?.stop(), adapter.close()])
    })

    test("the session and the stored user (OpenID sign-in)", async () => {
      const app = await start(
        async (origin) => {
          idp = await startOidcProvider({ redirectUris: [`${origin}/auth/callback/local`] })
          return credentialsConfig({
            adapter,
            providers: [localOidcProvider(idp)],
          })
        },
        { after: whoami },
      )
      const b = new HttpBrowser(app.origin)
      const start_ = await b.startSignIn("local")
      const back = await completeOidcLogin(start_.headers.get("location")!, { accountId: "grace" })
      expect((await b.request(back.url)).status).toBe(302)
      const authUser = (await (await b.request("/whoami")).json()) as AuthUser
      expect(authUser.session.user).toMatchObject({ name: "Grace", email: "grace@example.test" })
      expect(authUser.user).toMatchObject({ email: "grace@example.test" })
      expect(authUser.user?.id).toEqual(expect.any(String))
      expect(authUser.token).toBeUndefined()
    })
  })
})

describe("getAuthUser", () => {
  test("on a public route: null, then the user; read once per request however often it is called", async () => {
    // updateAge 0: every read re-issues the session cookie, so each read would add a Set-Cookie.
    const app = await start(credentialsConfig({ session: { updateAge: 0 } }), {
      after: (app) =>
        app.get("/hello", async (c) => {
          const first = await getAuthUser(c)
          const second = await getAuthUser(c)
          return c.json({ same: first === second, name: first?.session.user?.name ?? null })
        }),
    })
    const b = new HttpBrowser(app.origin)
    expect(await (await b.request("/hello")).json()).toEqual({ same: true, name: null })
    await b.signInWithCredentials(alice)
    await new Promise((resolve) => setTimeout(resolve, 1100)) // a new `iat`, a new token
    const before = b.jar.get("tessera.session-token")
    const response = await b.request("/hello")
    expect(await response.json()).toEqual({ same: true, name: "Alice" })
    const refreshed = response.headers
      .getSetCookie()
      .filter((line) => line.startsWith("tessera.session-token="))
    expect(refreshed).toHaveLength(1)
    expect(b.jar.get("tessera.session-token")).not.toBe(before)
  })

  test("verifyAuth sets the refreshed cookie on a handler's raw Response too", async () => {
    const app = await start(credentialsConfig({ session: { updateAge: 0 } }), {
      after: (app) => {
        app.use("/raw", verifyAuth())
        app.get("/raw", () => new Response("raw"))
      },
    })
    const b = new HttpBrowser(app.origin)
    await b.signInWithCredentials(alice)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    const response = await b.request("/raw")
    expect(await response.text()).toBe("raw")
    expect(
      response.headers.getSetCookie().some((line) => line.startsWith("tessera.session-token=")),
    ).toBe(true)
  })
})

describe("verifyAuth", () => {
  test("without a session: an HTTPException with a 401 Unauthorized response", async () => {
    const seen: unknown[] = []
    const app = await start(credentialsConfig(), {
      after: (app) =>
        app.onError((error, c) => {
          seen.push(error)
          return error instanceof HTTPException ? error.getResponse() : c.text("error", 500)
        }),
    })
    const response = await new HttpBrowser(app.origin).request("/me")
    expect(response.status).toBe(401)
    expect(await response.text()).toBe("Unauthorized")
    expect(seen).toHaveLength(1)
    expect((seen[0] as HTTPException).status).toBe(401)
  })
})

describe("base path and requests", () => {
  test("registered at /api/auth/*: the routes are served there, as with @hono/auth-js", async () => {
    const app = await start(credentialsConfig(), { mount: "/api/auth/*" })
    const b = new HttpBrowser(app.origin, "/api/auth")
    const page = await (await b.request("/api/auth/signin")).text()
    expect(page).toContain(`action="${app.origin}/api/auth/callback/credentials"`)
    expect((await b.signInWithCredentials(alice)).status).toBe(302)
    expect((await b.session())?.user?.name).toBe("Alice")
    expect((await b.request("/me")).status).toBe(200)
  })

  test("paths under the mount that are no auth action go on to the app", async () => {
    const app = await start(credentialsConfig(), {
      after: (app) => app.get("/auth/help", (c) => c.text("help")),
    })
    expect(await (await new HttpBrowser(app.origin).request("/auth/help")).text()).toBe("help")
  })

  test("a body an earlier middleware already read still reaches core", async () => {
    const app = await start(credentialsConfig(), {
      before: (app) =>
        app.use("/auth/*", async (c, next) => {
          if (c.req.method === "POST") await c.req.parseBody()
          await next()
        }),
    })
    const b = new HttpBrowser(app.origin)
    expect((await b.signInWithCredentials(alice)).status).toBe(302)
    expect((await b.session())?.user?.name).toBe("Alice")
  })

  test("app.request() with no server", async () => {
    const config = credentialsConfig()
    const app = honoApp(() => config)
    const response = await app.request("/auth/csrf")
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ csrfToken: expect.any(String) })
    expect((await app.request("/me")).status).toBe(401)
  })

  test("without initAuthConfig the auth routes answer 500", async () => {
    const { Hono } = await import("hono")
    const { authHandler } = await import("../src/index.js")
    const app = new Hono()
    const errors: Error[] = []
    app.use("/auth/*", authHandler())
    app.onError((error, c) => {
      errors.push(error)
      return c.text("Internal Server Error", 500)
    })
    const response = await app.request("/auth/csrf")
    expect(response.status).toBe(500)
    expect(errors[0]?.message).toMatch(/initAuthConfig/)
  })
})
