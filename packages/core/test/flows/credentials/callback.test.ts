/**
 * Credentials sign-in: `authorize(credentials, request)` decides; null and
 * `CredentialsSignin` land on the sign-in page with a code; anything else is a
 * server problem shown as `Configuration`; the `signIn` callback may deny.
 */
import { describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { CredentialsSignin } from "@tessera/core/errors"
import Credentials from "@tessera/core/providers/credentials"
import {
  ADA,
  ORIGIN,
  csrfToken,
  get,
  makeConfig,
  post,
  sessionCookieName,
  setCookie,
  signIn,
} from "../../harness/index.js"

const SESSION = "tessera.session-token"

async function submit(
  config: AuthConfig,
  fields: Record<string, unknown>,
  options: { path?: string; json?: boolean; headers?: Record<string, string> } = {},
) {
  const { token, jar } = await csrfToken(config)
  const response = await Auth(
    post(
      options.path ?? "/auth/callback/credentials",
      { ...fields, csrfToken: token },
      { jar, json: options.json, headers: options.headers },
    ),
    config,
  )
  jar.update(response)
  return { response, jar, location: response.headers.get("location") }
}

describe("authorize", () => {
  test("receives the submitted fields (not Tessera's own) and a readable Request", async () => {
    const seen: Array<{ credentials: unknown; request: Request; body: unknown }> = []
    const { config } = makeConfig({
      providers: [
        Credentials({
          credentials: { username: {}, otp: {} },
          async authorize(credentials, request) {
            seen.push({ credentials, request, body: await request.json() })
            return { id: "7", name: "Seven" }
          },
        }),
      ],
    })
    await submit(
      config,
      { username: "ada", otp: "123456", callbackUrl: "/x" },
      { headers: { "user-agent": "tessera-test", "x-forwarded-for": "203.0.113.9" } },
    )
    expect(seen).toHaveLength(1)
    expect(seen[0]!.credentials).toEqual({ username: "ada", otp: "123456" })
    const { request, body } = seen[0]!
    expect(request).toBeInstanceOf(Request)
    expect(request.method).toBe("POST")
    expect(request.url).toBe(`${ORIGIN}/auth/callback/credentials`)
    expect(request.headers.get("user-agent")).toBe("tessera-test")
    expect(request.headers.get("x-forwarded-for")).toBe("203.0.113.9")
    expect(body).toMatchObject({ username: "ada", otp: "123456", callbackUrl: "/x" })
  })

  test("a user -> a session and a redirect to the callback URL", async () => {
    const { config } = makeConfig()
    const { response, jar, location } = await submit(config, {
      username: "ada",
      password: "correct horse",
      callbackUrl: "/home",
    })
    expect(response.status).toBe(302)
    expect(location).toBe(`${ORIGIN}/home`)
    expect(setCookie(response, SESSION)).toBeDefined()
    const session = (await (await Auth(get("/auth/session", { jar }), config)).json()) as {
      user: object
    }
    expect(session.user).toEqual({ name: ADA.name, email: ADA.email, image: ADA.image })
  })

  test("JSON bodies work like forms", async () => {
    const { config } = makeConfig()
    const { location, response } = await submit(
      config,
      { username: "ada", password: "correct horse" },
      { json: true },
    )
    expect(location).toBe(ORIGIN)
    expect(setCookie(response, SESSION)).toBeDefined()
  })

  test("POST signin/credentials is the same as the callback", async () => {
    const { config } = makeConfig()
    const { location, response } = await submit(
      config,
      { username: "ada", password: "correct horse" },
      { path: "/auth/signin/credentials" },
    )
    expect(location).toBe(ORIGIN)
    expect(setCookie(response, SESSION)).toBeDefined()
  })

  test("null -> sign-in page with error=CredentialsSignin&code=credentials, no session, logged", async () => {
    const { config, log } = makeConfig({ debug: true })
    const { response, location } = await submit(config, { username: "ada", password: "wrong" })
    expect(response.status).toBe(302)
    expect(location).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`)
    expect(setCookie(response, SESSION)).toBeUndefined()
    // A wrong password is the client's doing: logged at debug level, never as a server error.
    expect(log.errors).toEqual([])
    expect(log.refusals.map((e) => (e as { type?: string }).type)).toEqual(["CredentialsSignin"])
  })

  test("a thrown CredentialsSignin subclass -> its code", async () => {
    const { config } = makeConfig()
    const { location } = await submit(config, { username: "throw" })
    expect(location).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=invalid_login`)
  })

  test("a thrown CredentialsSignin with a message keeps the message out of the URL", async () => {
    const { config } = makeConfig({
      providers: [
        Credentials({
          authorize() {
            throw new CredentialsSignin("user ada exists but password mismatch")
          },
        }),
      ],
    })
    const { location } = await submit(config, {})
    expect(location).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`)
  })

  test("any other throw -> error=Configuration on the error page; the full error is logged, not shown", async () => {
    const { config, log } = makeConfig()
    const { response, location } = await submit(config, { username: "crash" })
    expect(response.status).toBe(302)
    expect(location).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(location).not.toContain("hunter2")
    expect(log.errors).toHaveLength(1)
    expect(log.errors[0]).toMatchObject({ type: "CallbackRouteError" })
    expect((log.errors[0]!.cause as { err: Error }).err.message).toBe("db password hunter2 leaked")
    const page = await Auth(get(location!), config)
    expect(page.status).toBe(500)
    expect(await page.text()).not.toContain("hunter2")
  })

  test("a user without id gets a random one; a numeric id becomes a string", async () => {
    let user: Record<string, unknown> = { name: "No Id" }
    const subs: unknown[] = []
    const { config } = makeConfig({
      providers: [Credentials({ authorize: () => user as any })],
      callbacks: { jwt: ({ token }) => (subs.push(token.sub), token) },
    })
    await submit(config, {})
    user = { id: 42, name: "Numeric" }
    await submit(config, {})
    expect(subs[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(subs[1]).toBe("42")
  })

  test("a custom sign-in page receives error and code", async () => {
    const { config } = makeConfig({ pages: { signIn: "/login" } })
    const { location } = await submit(config, { username: "ada", password: "nope" })
    expect(location).toBe(`${ORIGIN}/login?error=CredentialsSignin&code=credentials`)
  })

  test("several credentials providers are told apart by id", async () => {
    const { config } = makeConfig({
      providers: [
        Credentials({ id: "password", authorize: () => ({ id: "p", name: "By password" }) }),
        Credentials({ id: "otp", authorize: () => ({ id: "o", name: "By code" }) }),
      ],
    })
    const { jar } = await signIn(config, {}, { providerId: "otp" })
    const session = (await (await Auth(get("/auth/session", { jar }), config)).json()) as {
      user: { name: string }
    }
    expect(session.user.name).toBe("By code")
  })
})

describe("signIn callback", () => {
  test("receives user, account and credentials", async () => {
    const seen: unknown[] = []
    const { config } = makeConfig({ callbacks: { signIn: (params) => (seen.push(params), true) } })
    await submit(config, { username: "ada", password: "correct horse" })
    expect(seen[0]).toMatchObject({
      user: { id: ADA.id, email: ADA.email },
      account: { type: "credentials", provider: "credentials", providerAccountId: ADA.id },
      credentials: { username: "ada", password: "correct horse" },
    })
  })

  test("false -> AccessDenied on the error page (403), no session", async () => {
    const { config } = makeConfig({ callbacks: { signIn: () => false } })
    const { response, location } = await submit(config, {
      username: "ada",
      password: "correct horse",
    })
    expect(location).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    expect(setCookie(response, SESSION)).toBeUndefined()
    const page = await Auth(get(location!), config)
    expect(page.status).toBe(403)
    expect(await page.text()).toContain("Access denied")
  })

  test("a custom error page receives AccessDenied", async () => {
    const { config } = makeConfig({
      callbacks: { signIn: () => false },
      pages: { error: "/problem" },
    })
    const { location } = await submit(config, { username: "ada", password: "correct horse" })
    expect(location).toBe(`${ORIGIN}/problem?error=AccessDenied`)
  })

  test("events.signIn fires after a successful sign-in; a throwing handler does not break it", async () => {
    const events: unknown[] = []
    const { config, log } = makeConfig({
      events: {
        signIn: (message) => {
          events.push(message)
          throw new Error("listener broke")
        },
      },
    })
    const { location, response } = await submit(config, {
      username: "ada",
      password: "correct horse",
    })
    expect(location).toBe(ORIGIN)
    expect(setCookie(response, SESSION)).toBeDefined()
    expect(events).toMatchObject([
      { user: { id: ADA.id }, account: { provider: "credentials" }, isNewUser: false },
    ])
    expect(log.errors.map((e) => (e as { type?: string }).type)).toEqual(["EventError"])
  })
})

describe("the signIn callback fails closed", () => {
  // Auth.js denies on any falsy answer; an app that forgets a `return` must not let everyone in.
  for (const answer of [undefined, null, ""]) {
    test(`credentials: a signIn callback answering ${JSON.stringify(answer)} refuses the sign-in`, async () => {
      const { config } = makeConfig({ callbacks: { signIn: () => answer as any } })
      const { response } = await signIn(config)
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
      const session = setCookie(response, sessionCookieName())
      expect(session === undefined || session.value === "").toBe(true)
    })
  }
})

test("Credentials() with no options: the provider exists, and every sign-in is refused (authorize returns null)", async () => {
  const { config } = makeConfig({ providers: [Credentials()] })
  const { response } = await signIn(config, { username: "anyone", password: "anything" })
  expect(response.headers.get("location")).toBe(
    `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`,
  )
})
