/**
 * The framework integration conformance suite: one set of end-to-end tests
 * that every integration (Express, Hono, your own) must pass, over real HTTP
 * on 127.0.0.1 with a cookie jar, against the integration's own server.
 * Built on vitest: call it at the top level of a test file.
 *
 * It covers what each integration does on its own, not core's flows in depth:
 * the request conversion (URL, headers, form and JSON bodies, size limit),
 * the response conversion (status, redirects, several `Set-Cookie` lines),
 * the session reader (`/me`), and host trust: a forwarding header the
 * framework did not trust must not reach core, and `AUTH_URL` pins the origin.
 *
 * @example
 * ```ts
 * import { runIntegrationTests } from "@tessera/testing/suites"
 *
 * runIntegrationTests({
 *   name: "my framework",
 *   async start({ config }) {
 *     const server = await listen() // 127.0.0.1, port 0
 *     const origin = `http://127.0.0.1:${server.port}`
 *     const authConfig = await config(origin)
 *     server.handle(myApp(authConfig)) // /auth/* -> the integration; GET /me -> 401 or the session
 *     return { origin, stop: () => server.close() }
 *   },
 * })
 * ```
 * @module
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import type { Session } from "@tessera/core/types"
import { expectOwnSessionsUnderLoad } from "./concurrent-sessions.js"
import { HttpBrowser, sendRaw } from "./http-browser.js"
import {
  integrationConfig,
  integrationCredentials,
  type IntegrationApp,
  type IntegrationHarness,
} from "./integration-config.js"
import {
  completeOidcLogin,
  localOidcProvider,
  startOidcProvider,
  type OidcProviderServer,
} from "./oidc-provider.js"

const ATTACKER = "attacker.test"

/**
 * The suite's configuration. `reads.theme` counts the reads of its `theme` option: core reads
 * each option once when it resolves an object, and an integration's copy reads it once when
 * made, so a count that grows per request means the configuration is validated per request
 * (warnings cannot tell: they are said once per process).
 */
function suiteConfig(
  idp: OidcProviderServer,
  logged: Error[],
  reads: { theme: number },
): AuthConfig {
  const config = integrationConfig({
    // Recorded, not printed: some tests cause errors on purpose and check they were logged.
    // Refusals the client caused are logged at debug level: recorded with the errors.
    debug: true,
    logger: {
      error: (error) => void logged.push(error),
      warn: () => {},
      debug: (_message, metadata) => {
        const error = (metadata as { error?: unknown } | undefined)?.error
        if (error instanceof Error) logged.push(error)
      },
    },
    providers: [integrationCredentials(), localOidcProvider(idp)],
  })
  Object.defineProperty(config, "theme", {
    enumerable: true,
    get: () => void reads.theme++,
  })
  return config
}

function sessionChunks(response: Response): string[] {
  return response.headers
    .getSetCookie()
    .filter((line) => /^tessera\.session-token\.\d+=[^;]/.test(line))
    .map((line) => line.slice(0, line.indexOf("=")))
}

/**
 * Runs the suite against the app `harness` starts.
 *
 * @param harness Names the suite and starts the app.
 * @see [docs/testing.md: conformance suites](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#conformance-suites)
 */
export function runIntegrationTests(harness: IntegrationHarness): void {
  describe(`${harness.name}: integration conformance`, () => {
    let app: IntegrationApp
    let idp: OidcProviderServer
    let config: AuthConfig
    const logged: Error[] = []
    const reads = { theme: 0 }

    beforeAll(async () => {
      app = await harness.start({
        async config(origin) {
          idp = await startOidcProvider({
            redirectUris: [`${origin}/auth/callback/local`],
            accounts: { ada: { name: "Ada Lovelace", email: "ada@example.test" } },
          })
          config = suiteConfig(idp, logged, reads)
          return config
        },
      })
    })
    afterAll(async () => {
      await Promise.all([app?.stop(), idp?.stop()])
    })

    const browser = () => new HttpBrowser(app.origin)
    const me = async (b: HttpBrowser) => {
      const response = await b.request("/me")
      return {
        status: response.status,
        session: response.status === 200 ? ((await response.json()) as Session) : null,
      }
    }

    test("GET /auth/csrf answers a token and sets the CSRF cookie", async () => {
      const b = browser()
      const response = await b.request("/auth/csrf")
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toMatch(/^application\/json/)
      const { csrfToken } = (await response.json()) as { csrfToken: string }
      expect(csrfToken).toMatch(/^[0-9a-f]{64}$/)
      expect(b.jar.get("tessera.csrf-token")).toContain(csrfToken)
    })

    test("one configuration object: validated once, not per request or per session read", async () => {
      const b = browser()
      await b.csrfToken()
      const resolutions = reads.theme
      expect(resolutions).toBeGreaterThan(0)
      await b.signInWithCredentials({ username: "alice", password: "wonderland-42" })
      for (let i = 0; i < 3; i++) {
        expect((await me(b)).status).toBe(200)
        expect(await b.session()).not.toBeNull()
      }
      expect(reads.theme).toBe(resolutions)
    })

    test("credentials sign-in (form body): redirect, session cookie, /auth/session and /me", async () => {
      const b = browser()
      const response = await b.signInWithCredentials(
        { username: "alice", password: "wonderland-42" },
        { callbackUrl: "/after?x=1" },
      )
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe(`${app.origin}/after?x=1`)
      expect(b.jar.has("tessera.session-token")).toBe(true)
      expect((await b.session())?.user).toMatchObject({
        name: "Alice",
        email: "alice@example.test",
      })
      const mine = await me(b)
      expect(mine.status).toBe(200)
      expect(mine.session?.user?.name).toBe("Alice")
    })

    test("credentials sign-in (JSON body, X-Auth-Return-Redirect): the URL as JSON", async () => {
      const b = browser()
      const csrfToken = await b.csrfToken()
      const response = await b.request("/auth/callback/credentials", {
        json: { username: "alice", password: "wonderland-42", csrfToken, callbackUrl: "/json" },
        headers: { "x-auth-return-redirect": "1" },
      })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ url: `${app.origin}/json` })
      expect((await me(b)).session?.user?.email).toBe("alice@example.test")
    })

    test("a wrong password lands on the sign-in page with CredentialsSignin and no session", async () => {
      const b = browser()
      const response = await b.signInWithCredentials({ username: "alice", password: "nope" })
      expect(response.status).toBe(302)
      const location = new URL(response.headers.get("location")!)
      expect(location.origin).toBe(app.origin)
      expect(location.pathname).toBe("/auth/signin")
      expect(location.searchParams.get("error")).toBe("CredentialsSignin")
      expect(b.jar.has("tessera.session-token")).toBe(false)
      expect((await me(b)).status).toBe(401)
    })

    test("sign-out ends the session: /auth/session is null and /me is 401", async () => {
      const b = browser()
      await b.signInWithCredentials({ username: "alice", password: "wonderland-42" })
      expect((await me(b)).status).toBe(200)
      const response = await b.signOut()
      expect(response.status).toBe(302)
      expect(new URL(response.headers.get("location")!).origin).toBe(app.origin)
      expect(b.jar.has("tessera.session-token")).toBe(false)
      expect(await b.session()).toBeNull()
      expect((await me(b)).status).toBe(401)
    })

    test("/me without a session is 401; with a tampered cookie it is 401 and the cookie is cleared", async () => {
      const b = browser()
      expect((await me(b)).status).toBe(401)
      b.jar.set("tessera.session-token", "not-a-jwe")
      const response = await b.request("/me")
      expect(response.status).toBe(401)
      expect(response.headers.getSetCookie().join("\n")).toMatch(
        /^tessera\.session-token=;.*Max-Age=0/m,
      )
      expect(logged.map((error) => error.name)).toContain("JWTSessionError")
    })

    test("bad requests are answered 4xx by core, not by a crash", async () => {
      const b = browser()
      const csrfToken = await b.csrfToken()
      const malformed = await b.request("/auth/callback/credentials", {
        body: "{ not json",
        headers: { "content-type": "application/json" },
      })
      // Core's JSON error, or the app's own body parser refusing it first: a 400 either way.
      expect(malformed.status).toBe(400)

      const wrongMethod = await b.request("/auth/session", { method: "DELETE" })
      expect(wrongMethod.status).toBe(405)
      expect(wrongMethod.headers.get("allow")).toBe("GET, POST")

      const tooLarge = await b.request("/auth/callback/credentials", {
        form: { csrfToken, username: "alice", password: "x".repeat(70 * 1024) },
      })
      expect(tooLarge.status).toBe(413)

      const unsupported = await b.request("/auth/callback/credentials", {
        body: "<xml/>",
        headers: { "content-type": "application/xml" },
      })
      expect(unsupported.status).toBe(415)

      // The connection is still usable after each refusal.
      expect((await b.request("/auth/csrf")).status).toBe(200)
    })

    test("several Set-Cookie lines stay separate: a session in three chunks, then the chunks cleared", async () => {
      const b = browser()
      const bulky = await b.signInWithCredentials({ username: "bulky", password: "heavy-load-7" })
      expect(bulky.status).toBe(302)
      expect(sessionChunks(bulky)).toEqual([
        "tessera.session-token.0",
        "tessera.session-token.1",
        "tessera.session-token.2",
      ])
      for (const line of bulky.headers.getSetCookie()) {
        expect(line).toMatch(/^[^=,;]+=[^;,]*(;|$)/) // one cookie per line, never joined with commas
      }
      expect((await me(b)).session?.user?.name).toBe("Bulky")

      const small = await b.signInWithCredentials({ username: "alice", password: "wonderland-42" })
      const cleared = small.headers
        .getSetCookie()
        .filter((line) => /Max-Age=0/.test(line))
        .map((line) => line.slice(0, line.indexOf("=")))
      expect(cleared).toEqual(
        expect.arrayContaining([
          "tessera.session-token.0",
          "tessera.session-token.1",
          "tessera.session-token.2",
        ]),
      )
      expect([...b.jar.keys()].filter((name) => name.startsWith("tessera.session-token"))).toEqual([
        "tessera.session-token",
      ])
      expect((await me(b)).session?.user?.name).toBe("Alice")
    })

    test("concurrent requests of two users and anonymous visitors each get only their own session and cookies", async () => {
      // An app of its own, whose session slides on every read: every answer sets cookies.
      const sliding = await harness.start({
        config: async () =>
          integrationConfig({ logger: { error: () => {} }, session: { updateAge: 0 } }),
      })
      try {
        await expectOwnSessionsUnderLoad(sliding.origin, ["/me", "/auth/session"])
      } finally {
        await sliding.stop()
      }
    })

    test("OAuth sign-in against a local OpenID provider", async () => {
      const b = browser()
      const start = await b.startSignIn("local", { callbackUrl: "/welcome" })
      expect(start.status).toBe(302)
      const authorization = new URL(start.headers.get("location")!)
      expect(authorization.origin).toBe(idp.issuer)
      expect(authorization.searchParams.get("redirect_uri")).toBe(
        `${app.origin}/auth/callback/local`,
      )
      const back = await completeOidcLogin(authorization, { accountId: "ada" })
      expect(back.method).toBe("GET")
      const done = await b.request(back.url)
      expect(done.status).toBe(302)
      expect(done.headers.get("location")).toBe(`${app.origin}/welcome`)
      expect((await me(b)).session?.user).toMatchObject({
        name: "Ada Lovelace",
        email: "ada@example.test",
      })
    })

    describe("host trust", () => {
      const forged = {
        "x-forwarded-host": ATTACKER,
        "x-forwarded-proto": "https",
        forwarded: `host=${ATTACKER};proto=https`,
      }

      test("core alone would build URLs on a forwarded host (the attack is real)", async () => {
        const response = await Auth(
          new Request(`${app.origin}/auth/signin`, { headers: forged }),
          config,
        )
        expect(await response.text()).toContain(`https://${ATTACKER}/auth/`)
      })

      test("X-Forwarded-Host/-Proto and Forwarded from an untrusted client never reach core", async () => {
        const b = browser()
        const page = await b.request("/auth/signin", { headers: forged })
        expect(page.status).toBe(200)
        const html = await page.text()
        expect(html).not.toContain(ATTACKER)
        expect(html).toContain(`action="${app.origin}/auth/callback/credentials"`)

        const signIn = await b.signInWithCredentials(
          { username: "alice", password: "wonderland-42" },
          { callbackUrl: "/after", headers: forged },
        )
        expect(signIn.headers.get("location")).toBe(`${app.origin}/after`)
        // Not https: the cookies keep their plain-http names.
        expect(b.jar.has("tessera.session-token")).toBe(true)
        expect(signIn.headers.getSetCookie().join("\n")).not.toMatch(
          /__Secure-|__Host-|;\s*Secure/i,
        )

        const csrfToken = await b.csrfToken()
        const oauth = await b.request("/auth/signin/local", {
          form: { csrfToken },
          headers: forged,
        })
        const redirectUri = new URL(oauth.headers.get("location")!).searchParams.get("redirect_uri")
        expect(redirectUri).toBe(`${app.origin}/auth/callback/local`)

        const failed = await b.signInWithCredentials(
          { username: "alice", password: "nope" },
          { headers: forged },
        )
        expect(new URL(failed.headers.get("location")!).host).toBe(new URL(app.origin).host)
      })

      test("AUTH_URL pins the origin, whatever host the request claims", async () => {
        const previous = process.env.AUTH_URL
        process.env.AUTH_URL = "https://app.example.test"
        try {
          const response = await sendRaw(app.origin, {
            target: "/auth/signin",
            headers: { host: ATTACKER, ...forged },
          })
          expect(response.status).toBe(200)
          expect(response.body).not.toContain(ATTACKER)
          expect(response.body).toContain(
            `action="https://app.example.test/auth/callback/credentials"`,
          )
          // Set-Cookie follows the canonical https origin too.
          expect(String(response.headers["set-cookie"])).toMatch(/__Host-tessera\.csrf-token/)

          // Nor does the authority of an absolute-form target (which HTTP says replaces Host).
          const absolute = await sendRaw(app.origin, {
            target: `http://${ATTACKER}/auth/signin`,
            headers: { host: ATTACKER },
          })
          expect(absolute.status).toBe(200)
          expect(absolute.body).not.toContain(ATTACKER)
        } finally {
          if (previous === undefined) delete process.env.AUTH_URL
          else process.env.AUTH_URL = previous
        }
      })
    })
  })
}
