/**
 * Auth.js v5 documentation snippets, imports changed to `@tessera/*`: the
 * Credentials provider (authjs.dev/getting-started/authentication/credentials),
 * custom pages (`pages.signIn`, `pages.error`), `session` and `jwt` options, and
 * `events`. An app that copied these from authjs.dev must keep working.
 */
import { describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { CredentialsSignin } from "@tessera/core/errors"
import Credentials from "@tessera/core/providers/credentials"
import { decode, encode } from "@tessera/core/jwt"
import { Browser, get, SECRET, signIn } from "../harness/index.js"

const ORIGIN = "http://localhost:3000"

class InvalidLoginError extends CredentialsSignin {
  override code = "Invalid identifier or password"
}

/** The docs' credentials provider, with a user lookup standing in for the database. */
function docsCredentials(seen: { request?: Request } = {}) {
  return Credentials({
    // You can specify which fields should be submitted, by adding keys to the `credentials` object.
    // e.g. domain, username, password, 2FA token, etc.
    credentials: {
      email: {},
      password: {},
    },
    authorize: async (credentials, request) => {
      seen.request = request
      if (credentials.email === "throw@example.com") throw new InvalidLoginError()
      // logic to verify if the user exists
      const user =
        credentials.email === "ada@example.com" && credentials.password === "pw"
          ? { id: "1", name: "Ada", email: "ada@example.com", role: "admin", tenant: "t1" }
          : null
      if (!user) {
        // No user found, so this is their first attempt to login
        // Optionally, this is also the place you could do a user registration
        return null
      }
      // return user object with their profile data
      return user
    },
  })
}

describe("Credentials (authjs.dev/getting-started/authentication/credentials)", () => {
  test("authorize(credentials, request) signs in; extra user fields reach jwt()", async () => {
    const seen: { request?: Request; user?: Record<string, unknown> } = {}
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [docsCredentials(seen)],
      callbacks: {
        jwt({ token, user }) {
          if (user) {
            seen.user = user as Record<string, unknown>
            token.role = (user as { role?: string }).role
          }
          return token
        },
        session({ session, token }) {
          return { ...session, user: { ...session.user, role: token.role as string } }
        },
      },
    }
    const { response, jar } = await signIn(config, { email: "ada@example.com", password: "pw" })
    expect(response.status).toBe(302)
    expect(seen.request).toBeInstanceOf(Request)
    expect(seen.request!.method).toBe("POST")
    expect(seen.user).toMatchObject({ id: "1", role: "admin", tenant: "t1" })
    const session = await new Browser(config, ORIGIN, jar).session()
    expect(session.user).toMatchObject({ name: "Ada", email: "ada@example.com", role: "admin" })
  })

  test("null: error=CredentialsSignin&code=credentials; a thrown CredentialsSignin: its code", async () => {
    const config: AuthConfig = { secret: SECRET, trustHost: true, providers: [docsCredentials()] }
    const refused = await signIn(config, { email: "nobody@example.com", password: "x" })
    const location = new URL(refused.response.headers.get("location")!)
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
    expect(location.searchParams.get("code")).toBe("credentials")
    const thrown = await signIn(config, { email: "throw@example.com", password: "x" })
    expect(new URL(thrown.response.headers.get("location")!).searchParams.get("code")).toBe(
      "Invalid identifier or password",
    )
  })

  test("a JSON client (signIn('credentials', { redirect: false })) gets the url back", async () => {
    const config: AuthConfig = { secret: SECRET, trustHost: true, providers: [docsCredentials()] }
    const browser = new Browser(config)
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/callback/credentials", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "X-Auth-Return-Redirect": "1",
      },
      body: new URLSearchParams({
        email: "ada@example.com",
        password: "pw",
        csrfToken,
        callbackUrl: "/home",
      }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ url: `${ORIGIN}/home` })
  })
})

describe("custom pages (authjs.dev/guides/pages/signin, /error)", () => {
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    providers: [docsCredentials()],
    pages: { signIn: "/login", error: "/auth-error" },
  }

  test("GET /auth/signin redirects to pages.signIn with the callbackUrl", async () => {
    const response = await Auth(get("/auth/signin?callbackUrl=%2Fdashboard"), config)
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.origin + location.pathname).toBe(`${ORIGIN}/login`)
    // As in Auth.js: the callback URL after the redirect callback, absolute.
    expect(location.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`)
  })

  test("a failed credentials sign-in goes to pages.signIn with the error", async () => {
    const { response } = await signIn(config, { email: "nobody@example.com", password: "x" })
    const location = new URL(response.headers.get("location")!)
    expect(location.pathname).toBe("/login")
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
  })

  test("GET /auth/error goes to pages.error with the error", async () => {
    const response = await Auth(get("/auth/error?error=AccessDenied"), config)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth-error?error=AccessDenied`)
  })
})

describe("session and jwt options (authjs.dev/reference/core#session, #jwt)", () => {
  test("session: { strategy: 'jwt', maxAge, updateAge }: the cookie lives maxAge", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [docsCredentials()],
      session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
    }
    const { response, jar } = await signIn(config, { email: "ada@example.com", password: "pw" })
    expect(response.status).toBe(302)
    const session = await new Browser(config, ORIGIN, jar).session()
    const expires = new Date(session.expires).getTime()
    expect(Math.abs(expires - (Date.now() + 30 * 24 * 3600 * 1000))).toBeLessThan(60_000)
  })

  test("jwt: { maxAge, encode, decode } with @tessera/core/jwt's own encode/decode", async () => {
    const calls: string[] = []
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [docsCredentials()],
      jwt: {
        maxAge: 60 * 60 * 24 * 30,
        async encode(params) {
          calls.push("encode")
          return encode(params)
        },
        async decode(params) {
          calls.push("decode")
          return decode(params)
        },
      },
    }
    const { jar } = await signIn(config, { email: "ada@example.com", password: "pw" })
    const session = await new Browser(config, ORIGIN, jar).session()
    expect(session.user.email).toBe("ada@example.com")
    expect(calls).toContain("encode")
    expect(calls).toContain("decode")
  })
})

describe("events (authjs.dev/reference/core#events)", () => {
  test("signIn, session and signOut ({ token }) fire with the docs' messages", async () => {
    const events: Record<string, any> = {}
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [docsCredentials()],
      events: {
        signIn(message) {
          events.signIn = message
        },
        session(message) {
          events.session = message
        },
        signOut(message) {
          events.signOut = message
        },
      },
    }
    const { jar } = await signIn(config, { email: "ada@example.com", password: "pw" })
    const browser = new Browser(config, ORIGIN, jar)
    await browser.session()
    await browser.signOut()
    expect(events.signIn).toMatchObject({
      user: { email: "ada@example.com" },
      account: { provider: "credentials", type: "credentials" },
    })
    expect(events.session.session.user.email).toBe("ada@example.com")
    expect(events.signOut.token.email).toBe("ada@example.com")
  })
})
