/**
 * Issue 11 ("Auth.js drop-in"), tested as an outsider would: from the issue's
 * text and docs/migrating-from-authjs.md only, through the public entry points
 * and `Auth()` with real `Request`s. Expectations about Auth.js's surface are
 * those of @auth/core 0.41.3 (its `exports`, its `errors` module).
 */
import { afterEach, describe, expect, test, vi } from "vitest"
import * as core from "@tessera/core"
import { Auth, createActionURL, setEnvDefaults, type AuthConfig } from "@tessera/core"
import * as errors from "@tessera/core/errors"
import { decode, encode, getToken } from "@tessera/core/jwt"
import Credentials from "@tessera/core/providers/credentials"
import Nodemailer from "@tessera/core/providers/nodemailer"
import Resend from "@tessera/core/providers/resend"
import { MemoryAdapter } from "@tessera/testing"
import {
  Jar,
  OTHER_SECRET,
  SECRET,
  get,
  makeConfig,
  post,
  sessionCookieName,
  setCookie,
  signIn,
} from "../harness/index.js"

afterEach(() => {
  vi.unstubAllEnvs()
})

describe("the public surface an Auth.js app imports", () => {
  test("@tessera/core has @auth/core's named exports", () => {
    for (const name of [
      "Auth",
      "createActionURL",
      "customFetch",
      "isAuthAction",
      "raw",
      "setEnvDefaults",
      "skipCSRFCheck",
    ])
      expect(core, name).toHaveProperty(name)
  })

  test("@tessera/core/jwt has encode, decode, getToken", () => {
    expect([typeof encode, typeof decode, typeof getToken]).toEqual([
      "function",
      "function",
      "function",
    ])
  })

  test("an Auth.js v5 app's e-mail providers keep their ids and names", () => {
    // `GET /auth/providers` (and Auth.js's `signIn("nodemailer")`) see these.
    expect(Nodemailer({ server: "smtp://localhost:25" })).toMatchObject({
      id: "nodemailer",
      type: "email",
      name: "Nodemailer",
    })
    expect(Resend({ apiKey: "re_x" })).toMatchObject({
      id: "resend",
      type: "email",
      name: "Resend",
    })
  })

  // Auth.js's classes whose instance `type` is not the class name.
  test("SignInError's instances are of type AuthError, as in Auth.js", () => {
    expect(new errors.SignInError("x").type).toBe("AuthError")
  })

  // Auth.js's `isClientError` answers true for exactly these: the errors a page may show.
  test.each([
    "AccessDenied",
    "AccountNotLinked",
    "CredentialsSignin",
    "MissingCSRF",
    "OAuthAccountNotLinked",
    "OAuthCallbackError",
    "Verification",
    "WebAuthnVerificationError",
  ] as const)("isClientError(new %s()) is true, as in Auth.js", (name) => {
    expect(errors.isClientError(new errors[name]("x"))).toBe(true)
  })

  test.each([
    "AdapterError",
    "CallbackRouteError",
    "InvalidEndpoints",
    "MissingSecret",
    "OAuthSignInError",
    "SessionTokenError",
  ] as const)("isClientError(new %s()) is false, as in Auth.js", (name) => {
    expect(errors.isClientError(new errors[name]("x"))).toBe(false)
  })

  // The migration guide's row: every failure a request caused counts, these four too.
  test.each(["EmailSignInError", "InvalidCheck", "UnknownAction", "UntrustedHost"] as const)(
    "isClientError(new %s()) is true in Tessera, as the migration guide says",
    (name) => {
      expect(errors.isClientError(new errors[name]("x"))).toBe(true)
    },
  )
})

describe("the environment", () => {
  const request = () => get("/auth/session")

  test("setEnvDefaults(process.env, config); Auth(req, config) works (the config is filled in place)", async () => {
    const config: AuthConfig = { providers: [Credentials()] }
    const env = { AUTH_SECRET: SECRET, AUTH_URL: "http://localhost:3000" }
    setEnvDefaults(env, config)
    expect(config.secret).toBeTruthy()
    const response = await Auth(request(), config)
    expect(response.status).toBe(200)
  })

  test("Auth() reads AUTH_SECRET and AUTH_URL from process.env by itself", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET)
    vi.stubEnv("AUTH_URL", "http://localhost:3000")
    const response = await Auth(request(), { providers: [Credentials()] })
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
  })

  test("AUTH_<PROVIDER>_ID / _SECRET fill an OAuth provider given no options", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET)
    vi.stubEnv("AUTH_URL", "http://localhost:3000")
    vi.stubEnv("AUTH_GITHUB_ID", "gh-client-id")
    vi.stubEnv("AUTH_GITHUB_SECRET", "gh-client-secret")
    const { default: GitHub } = await import("@tessera/core/providers/github")
    const config: AuthConfig = { providers: [GitHub] }
    const csrf = await Auth(get("/auth/csrf"), config)
    const jar = new Jar()
    jar.update(csrf)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const response = await Auth(
      new Request("http://localhost:3000/auth/signin/github", {
        method: "POST",
        headers: {
          cookie: jar.header(),
          "content-type": "application/x-www-form-urlencoded",
          origin: "http://localhost:3000",
        },
        body: new URLSearchParams({ csrfToken }),
      }),
      config,
    )
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.origin).toBe("https://github.com")
    expect(location.searchParams.get("client_id")).toBe("gh-client-id")
  })

  test("AUTH_RESEND_KEY becomes the Resend provider's apiKey", () => {
    const config: AuthConfig = { providers: [Resend({ from: "a@app.example" })] }
    setEnvDefaults({ AUTH_SECRET: SECRET, AUTH_RESEND_KEY: "re_123" }, config)
    const [provider] = config.providers as unknown as { apiKey?: string }[]
    expect(provider.apiKey).toBe("re_123")
  })

  test("secret rotation: a cookie made with AUTH_SECRET is read and re-issued under AUTH_SECRET_1", async () => {
    const env = {
      AUTH_URL: "http://localhost:3000",
      AUTH_SECRET: SECRET,
      AUTH_SECRET_1: OTHER_SECRET,
    }
    const config: AuthConfig = { providers: [Credentials()] }
    setEnvDefaults(env, config)
    // Auth.js's order: [AUTH_SECRET_3, AUTH_SECRET_2, AUTH_SECRET_1, AUTH_SECRET].
    expect(config.secret).toEqual([OTHER_SECRET, SECRET])
    const name = sessionCookieName()
    const now = Math.floor(Date.now() / 1000)
    const old = await encode({
      secret: SECRET,
      salt: name,
      token: { sub: "u1", name: "Old", iat: now - 3 * 24 * 3600, auth_time: now - 3600 },
    })
    const response = await Auth(
      get("/auth/session", { headers: { cookie: `${name}=${old}` } }),
      config,
    )
    expect(((await response.json()) as { user: { name: string } }).user.name).toBe("Old")
    const reissued = setCookie(response, name)
    expect(reissued?.value).toBeTruthy()
    const token = await decode({ secret: OTHER_SECRET, salt: name, token: reissued!.value })
    expect(token?.sub).toBe("u1")
  })

  test("trustHost is inferred on Vercel (VERCEL=1): the request's host is used", async () => {
    vi.stubEnv("NODE_ENV", "production")
    vi.stubEnv("VERCEL", "1")
    vi.stubEnv("AUTH_SECRET", SECRET)
    vi.stubEnv("AUTH_URL", "")
    const response = await Auth(new Request("https://preview.vercel.example/auth/session"), {
      providers: [Credentials()],
    })
    expect(response.status).toBe(200)
  })

  test("createActionURL with an undefined protocol builds an https URL", () => {
    const url = createActionURL(
      "signin",
      undefined,
      new Headers({ host: "app.example" }),
      { AUTH_SECRET: SECRET },
      { trustHost: true },
    )
    expect(url.href).toBe("https://app.example/auth/signin")
  })

  test("createActionURL warns env-url-basepath-mismatch when AUTH_URL's path and basePath disagree", () => {
    const warn = vi.fn()
    createActionURL(
      "session",
      "https",
      new Headers(),
      { AUTH_URL: "https://app.example/api/auth" },
      { basePath: "/auth", logger: { warn } },
    )
    expect(warn).toHaveBeenCalledWith("env-url-basepath-mismatch")
  })
})

describe("flows", () => {
  test("Credentials() takes no options and refuses every sign-in", async () => {
    const { config } = makeConfig({ providers: [Credentials()] })
    const csrf = await Auth(get("/auth/csrf"), config)
    const jar = new Jar()
    jar.update(csrf)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const response = await Auth(
      new Request("http://localhost:3000/auth/callback/credentials", {
        method: "POST",
        headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, username: "a", password: "b" }),
      }),
      config,
    )
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toContain("error=CredentialsSignin")
  })

  test("a custom error page gets an absolute Location", async () => {
    const { config } = makeConfig({ pages: { error: "/oops" } })
    const response = await Auth(get("/auth/error?error=Verification"), config)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe("http://localhost:3000/oops?error=Verification")
  })

  test.each(["", "?error=NoSuchThing"])(
    "/auth/error%s is the generic error page, not a 5xx",
    async (query) => {
      const { config } = makeConfig()
      const response = await Auth(get(`/auth/error${query}`), config)
      expect(response.status).toBeLessThan(500)
      expect(response.headers.get("content-type")).toContain("text/html")
    },
  )

  test("getToken({ raw: true }) is null for a malformed Bearer header", async () => {
    const req = new Request("http://localhost:3000/api", {
      headers: { authorization: "Bearer not.a.jwe" },
    })
    expect(await getToken({ req, secret: SECRET, raw: true })).toBeNull()
  })

  test("an OAuth provider with no way to get a profile is refused at configuration time", async () => {
    const { config, log } = makeConfig({
      providers: [
        {
          id: "noprofile",
          name: "No profile",
          type: "oauth",
          authorization: "https://idp.example/authorize",
          token: "https://idp.example/token",
          clientId: "id",
          clientSecret: "secret",
        },
      ],
    })
    const response = await Auth(get("/auth/providers"), config)
    expect(response.status).toBe(500)
    expect(log.errors.map((e) => (e as { type?: string }).type)).toContain("InvalidEndpoints")
  })

  test("debug: true sends the steps of a request to logger.debug, never the secret", async () => {
    const debug = vi.fn()
    const { config } = makeConfig({ debug: true, logger: { debug } })
    await Auth(get("/auth/signin"), config)
    expect(debug).toHaveBeenCalled()
    expect(JSON.stringify(debug.mock.calls)).not.toContain(SECRET)
  })
})

describe("adapters and sessions", () => {
  /** Signs in by e-mail link: the link mailed is followed in the same jar. */
  async function emailSignIn(config: AuthConfig, links: string[]) {
    const jar = new Jar()
    const csrf = await Auth(get("/auth/csrf", { jar }), config)
    jar.update(csrf)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const start = await Auth(
      post("/auth/signin/nodemailer", { email: "grace@example.com", csrfToken }, { jar }),
      config,
    )
    jar.update(start)
    expect(links).toHaveLength(1)
    const callback = await Auth(
      new Request(links[0], { headers: { cookie: jar.header() } }),
      config,
    )
    jar.update(callback)
    return { callback, jar }
  }

  function mailer(links: string[]) {
    return Nodemailer({
      server: "smtp://localhost:25",
      from: "auth@app.example",
      sendVerificationRequest: async ({ url }) => void links.push(url),
    })
  }

  test("an e-mail provider needs only the adapter methods its flow uses (JWT sessions)", async () => {
    const full = MemoryAdapter()
    const adapter = {
      createVerificationToken: full.createVerificationToken!,
      useVerificationToken: full.useVerificationToken!,
      getUserByEmail: full.getUserByEmail,
      createUser: full.createUser!,
    }
    const links: string[] = []
    const { config } = makeConfig({
      adapter,
      session: { strategy: "jwt" },
      providers: [mailer(links)],
    })
    const { callback, jar } = await emailSignIn(config, links)
    expect(callback.status).toBe(302)
    expect(callback.headers.get("location")).not.toContain("error=")
    const session = await Auth(get("/auth/session", { jar }), config)
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(
      "grace@example.com",
    )
  })

  test("a signIn callback that throws during e-mail sign-in ends in AccessDenied", async () => {
    const links: string[] = []
    const { config } = makeConfig({
      adapter: MemoryAdapter(),
      providers: [mailer(links)],
      callbacks: {
        signIn({ email }) {
          // Let the link be sent, refuse its use.
          if (email?.verificationRequest) return true
          throw new Error("nope")
        },
      },
    })
    const { callback } = await emailSignIn(config, links)
    expect(callback.status).toBe(302)
    expect(callback.headers.get("location")).toContain("error=AccessDenied")
  })

  test("database sessions: the session callback gets { session: { sessionToken, userId, expires: Date, user }, user }", async () => {
    const links: string[] = []
    const seen: { session: Record<string, unknown>; user: Record<string, unknown> }[] = []
    const { config } = makeConfig({
      adapter: MemoryAdapter(),
      providers: [mailer(links)],
      callbacks: {
        session(params) {
          seen.push(params as never)
          return params.session
        },
      },
    })
    const { jar } = await emailSignIn(config, links)
    const response = await Auth(get("/auth/session", { jar }), config)
    expect(response.status).toBe(200)
    expect(seen).toHaveLength(1)
    const [{ session, user }] = seen
    expect(session.expires).toBeInstanceOf(Date)
    expect(typeof session.sessionToken).toBe("string")
    expect(session.userId).toBe(user.id)
    expect(session.user).toMatchObject({ id: user.id, email: "grace@example.com" })
    expect(user).toMatchObject({ email: "grace@example.com" })
  })

  test("the cookie preset of the migration guide keeps Auth.js's session cookie name", async () => {
    const { config } = makeConfig({
      cookies: { sessionToken: { name: "authjs.session-token" } },
    })
    const { response, jar } = await signIn(config)
    expect(setCookie(response, "authjs.session-token")?.value).toBeTruthy()
    expect(jar.has("tessera.session-token")).toBe(false)
    const session = await Auth(get("/auth/session", { jar }), config)
    expect(((await session.json()) as { user: { name: string } }).user.name).toBe("Ada Lovelace")
  })
})

describe("@tessera/core/jwt as Auth.js v5 has it", () => {
  test("encode and decode without a salt throw (Auth.js v5 needs one), instead of a token nothing reads", async () => {
    await expect(encode({ token: { sub: "1" }, secret: SECRET } as never)).rejects.toThrow(/salt/)
    const token = await encode({
      token: { sub: "1" },
      secret: SECRET,
      salt: "tessera.session-token",
    })
    await expect(decode({ token, secret: SECRET } as never)).rejects.toThrow(/salt/)
  })

  test("decode with a list of secrets opens a token of any of them; getToken reads the session cookie", async () => {
    const token = await encode({
      token: { sub: "1" },
      secret: SECRET,
      salt: "tessera.session-token",
    })
    expect(
      (await decode({ token, secret: [OTHER_SECRET, SECRET], salt: "tessera.session-token" }))?.sub,
    ).toBe("1")
    const req = new Request("http://localhost:3000/api", {
      headers: { cookie: `tessera.session-token=${token}` },
    })
    expect((await getToken({ req, secret: [OTHER_SECRET, SECRET] }))?.sub).toBe("1")
  })
})
