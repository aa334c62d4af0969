/**
 * Auth.js v5's public subpaths as an app imports them, imports changed to `@tessera/*`:
 * `@auth/core/errors` (every class Auth.js exports, its `type`, a `CredentialsSignin`
 * subclass whose `code` ends up in the redirect, `error instanceof ...` in app code) and
 * `@auth/core/jwt` (`getToken` in a route handler after a real sign-in: `secureCookie`,
 * `cookieName` with a `cookies` override, `salt`, `raw`; `encode`/`decode` round trip).
 */
import { afterEach, describe, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import * as errors from "@tessera/core/errors"
import { AuthError, CredentialsSignin, InvalidProvider, MissingSecret } from "@tessera/core/errors"
import { decode, encode, getToken } from "@tessera/core/jwt"
import Credentials from "@tessera/core/providers/credentials"
import { Jar } from "../harness/cookies.js"
import { HTTPS_ORIGIN, ORIGIN, SECRET, csrfToken, post, signIn } from "../harness/index.js"

/** Every error class `@auth/core/errors` exports (Auth.js v5, packages/core/src/errors.ts). */
const AUTHJS_ERROR_CLASSES = [
  "AccessDenied",
  "AccountNotLinked",
  "AdapterError",
  "AuthError",
  "CallbackRouteError",
  "CredentialsSignin",
  "DuplicateConditionalUI",
  "EmailSignInError",
  "ErrorPageLoop",
  "EventError",
  "ExperimentalFeatureNotEnabled",
  "InvalidCallbackUrl",
  "InvalidCheck",
  "InvalidEndpoints",
  "InvalidProvider",
  "JWTSessionError",
  "MissingAdapter",
  "MissingAdapterMethods",
  "MissingAuthorize",
  "MissingCSRF",
  "MissingSecret",
  "MissingWebAuthnAutocomplete",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "OAuthProfileParseError",
  "OAuthSignInError",
  "SessionTokenError",
  "SignInError",
  "SignOutError",
  "UnknownAction",
  "UnsupportedStrategy",
  "UntrustedHost",
  "Verification",
  "WebAuthnVerificationError",
]

/** The errors Auth.js's `isClientError` lets through to the client. */
const AUTHJS_CLIENT_ERRORS = [
  "CredentialsSignin",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "AccessDenied",
  "Verification",
  "MissingCSRF",
  "AccountNotLinked",
  "WebAuthnVerificationError",
]

type ErrorClass = new (message?: string) => AuthError
const byName = errors as unknown as Record<string, ErrorClass>

describe("@auth/core/errors (authjs.dev/reference/core/errors)", () => {
  test("every class Auth.js exports is there, with type = its name (SignInError: kind signIn)", () => {
    for (const name of AUTHJS_ERROR_CLASSES) {
      const Class = byName[name]
      expect(Class, `${name} is exported`).toBeTypeOf("function")
      const error = new Class!("x")
      expect(error).toBeInstanceOf(AuthError)
      expect(error.name).toBe(name)
      if (name !== "SignInError") expect(error.type, name).toBe(name)
    }
    for (const name of AUTHJS_CLIENT_ERRORS) {
      expect(errors.isClientError(new byName[name]!()), name).toBe(true)
    }
  })

  test("Tessera's provider-type error is an InvalidProvider, so `instanceof` in app code holds", async () => {
    const config = {
      secret: SECRET,
      trustHost: true,
      providers: [{ id: "x", name: "X", type: "saml" }],
    } as unknown as AuthConfig
    const logged: Error[] = []
    await Auth(new Request(`${ORIGIN}/auth/session`), {
      ...config,
      logger: { error: (e) => void logged.push(e) },
    })
    expect(logged.some((e) => e instanceof InvalidProvider)).toBe(true)
  })

  test("a CredentialsSignin subclass's code (with spaces) comes back in ?code=", async () => {
    // authjs.dev/getting-started/authentication/credentials#custom-error-messages
    class InvalidLoginError extends CredentialsSignin {
      code = "Invalid identifier or password"
    }
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [
        Credentials({
          credentials: { username: { label: "Username" }, password: { label: "Password" } },
          async authorize() {
            throw new InvalidLoginError()
          },
        }),
      ],
    }
    const { response } = await signIn(config, { username: "a", password: "b" })
    const location = new URL(response.headers.get("location")!)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
    expect(location.searchParams.get("code")).toBe("Invalid identifier or password")
  })
})

describe("@auth/core/jwt getToken in a route handler (authjs.dev/reference/core/jwt#gettoken)", () => {
  const credentials = Credentials({
    credentials: { username: {} },
    authorize: (c) => (c.username === "ada" ? { id: "1", name: "Ada", email: "ada@x.test" } : null),
  })

  afterEach(() => void vi.unstubAllEnvs())

  test("after a sign-in: the default name, secureCookie on https, raw, and salt", async () => {
    const config: AuthConfig = { secret: SECRET, trustHost: true, providers: [credentials] }
    const { jar } = await signIn(config, { username: "ada" }, { origin: HTTPS_ORIGIN })
    const req = new Request(`${HTTPS_ORIGIN}/api/me`, { headers: { cookie: jar.header() } })

    const token = await getToken({ req, secret: SECRET })
    expect(token).toMatchObject({ name: "Ada", email: "ada@x.test", sub: "1" })
    // secureCookie: true names the __Secure- cookie, which is also the salt.
    expect(await getToken({ req, secret: SECRET, secureCookie: true })).toMatchObject({ sub: "1" })
    expect(await getToken({ req, secret: SECRET, secureCookie: false })).toBeNull()
    const rawToken = await getToken({ req, secret: SECRET, raw: true })
    expect(rawToken).toBe(jar.get("__Secure-tessera.session-token"))
    // The same token with another salt does not open.
    expect(await getToken({ req, secret: SECRET, salt: "other" })).toBeNull()
  })

  test("cookies.sessionToken renamed: getToken({ cookieName }) reads it (salt = name)", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [credentials],
      cookies: { sessionToken: { name: "my-app.session" } },
    }
    const { jar } = await signIn(config, { username: "ada" })
    expect(jar.has("my-app.session")).toBe(true)
    const req = new Request(`${ORIGIN}/api/me`, { headers: { cookie: jar.header() } })
    expect(await getToken({ req, secret: SECRET })).toBeNull()
    expect(await getToken({ req, secret: SECRET, cookieName: "my-app.session" })).toMatchObject({
      sub: "1",
    })
    // decode() with the cookie name as salt, as a custom route would.
    expect(
      await decode({ token: jar.get("my-app.session"), secret: SECRET, salt: "my-app.session" }),
    ).toMatchObject({ sub: "1" })
  })

  test("a token from encode() sent as Authorization: Bearer (an API client)", async () => {
    const salt = "tessera.session-token"
    const bearer = await encode({ token: { sub: "7", role: "admin" }, secret: SECRET, salt })
    const req = new Request(`${ORIGIN}/api/x`, { headers: { authorization: `Bearer ${bearer}` } })
    expect(await getToken({ req, secret: [SECRET] })).toMatchObject({ sub: "7", role: "admin" })
  })

  test("no secret anywhere: MissingSecret, as Auth.js throws", async () => {
    vi.stubEnv("AUTH_SECRET", "")
    const req = new Request(`${ORIGIN}/api/x`, {
      headers: { cookie: "tessera.session-token=abc" },
    })
    await expect(getToken({ req })).rejects.toThrow(MissingSecret)
  })
})

describe("a custom route that signs in through Auth() and reads its cookie", () => {
  test("csrf + credentials callback via a JSON client; getToken reads the result", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [
        Credentials({ credentials: { username: {} }, authorize: () => ({ id: "u", name: "U" }) }),
      ],
    }
    const { token, jar } = await csrfToken(config, new Jar())
    const response = await Auth(
      post(
        "/auth/callback/credentials",
        { username: "u", csrfToken: token },
        { jar, json: true, headers: { "x-auth-return-redirect": "1" } },
      ),
      config,
    )
    expect(response.status).toBe(200)
    jar.update(response)
    const req = new Request(`${ORIGIN}/api`, { headers: { cookie: jar.header() } })
    expect(await getToken({ req, secret: SECRET })).toMatchObject({ sub: "u", name: "U" })
  })
})
