/**
 * Auth.js v5 documentation snippets, imports changed to `@tessera/*`: role-based
 * access control, extending the session, the `signIn` and `redirect` callbacks, and
 * the `jwt` callback's `trigger`, against a real OpenID Provider. An app that copied
 * these from authjs.dev must keep working after the import change.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { completeOidcLogin, startOidcProvider, type OidcProviderServer } from "@tessera/testing"
import type { AuthConfig } from "@tessera/core"
import Google from "@tessera/core/providers/google"
import { Browser, SECRET } from "../harness/index.js"

declare module "@tessera/core/types" {
  interface User {
    role?: string
  }
}

const ORIGIN = "http://localhost:3000"
let idp: OidcProviderServer

beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/google`],
    accounts: { ada: { name: "Ada Lovelace", email: "ada@example.test" } },
  })
})
afterAll(async () => {
  await idp?.stop()
})

/** Google, pointed at the local provider: the docs' options come on top. */
function google(options: Parameters<typeof Google>[0] = {}) {
  return Google({
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    issuer: idp.issuer,
    dangerouslyAllowInsecureHttpRequests: true,
    ...options,
  })
}

async function signInWithGoogle(config: AuthConfig, callbackUrl?: string) {
  const browser = new Browser(config)
  const start = await browser.startSignIn("google", { callbackUrl })
  expect(start.status).toBe(302)
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId: "ada" })
  const done = await browser.request(back.url.href)
  return { browser, done }
}

describe("authjs.dev/guides/role-based-access-control (JWT)", () => {
  test("profile() adds a role, jwt() keeps it, session() exposes it", async () => {
    // The docs' profile() spreads Google's claims, which have `sub` and no `id`:
    // the account is still keyed by the provider's `sub`.
    const seen: { providerAccountId?: string } = {}
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [
        google({
          profile(profile) {
            return { role: profile.role ?? "user", ...profile }
          },
        }),
      ],
      callbacks: {
        jwt({ token, user, account }) {
          if (account) seen.providerAccountId = account.providerAccountId
          if (user) token.role = user.role
          return token
        },
        session({ session, token }) {
          session.user.role = token.role as string
          return session
        },
      },
    }
    const { browser, done } = await signInWithGoogle(config, "/admin")
    expect(done.status).toBe(302)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/admin`)
    const session = await browser.session()
    // The provider sends no role claim: the docs' default.
    expect(session.user.role).toBe("user")
    expect(seen.providerAccountId).toBe("ada")
    expect(session.user.email).toBe("ada@example.test")
  })
})

describe("authjs.dev/guides/extending-the-session (JWT)", () => {
  test("jwt() copies user.id to the token, session() to session.user.id", async () => {
    const seen: { userId?: string } = {}
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [google()],
      callbacks: {
        jwt({ token, user }) {
          if (user) {
            // User is available during sign-in
            seen.userId = user.id
            token.id = user.id
          }
          return token
        },
        session({ session, token }) {
          session.user.id = token.id as string
          return session
        },
      },
    }
    const { browser, done } = await signInWithGoogle(config)
    expect(done.status).toBe(302)
    const session = await browser.session()
    expect(typeof seen.userId).toBe("string")
    expect(session.user.id).toBe(seen.userId)
  })
})

describe("callbacks.signIn (authjs.dev/reference/core#signin)", () => {
  test("returning false ends at the error page with AccessDenied", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [google()],
      callbacks: { signIn: () => false },
    }
    const { browser, done } = await signInWithGoogle(config)
    expect(done.status).toBe(302)
    const location = new URL(done.headers.get("location")!)
    expect(location.pathname).toBe("/auth/error")
    expect(location.searchParams.get("error")).toBe("AccessDenied")
    expect(await browser.session()).toBeNull()
  })

  test("returning a URL string redirects there without a session", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [google()],
      callbacks: { signIn: () => "/unauthorized" },
    }
    const { browser, done } = await signInWithGoogle(config)
    expect(done.status).toBe(302)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/unauthorized`)
    expect(await browser.session()).toBeNull()
  })

  test("the docs' allow-list on profile.email_verified and the domain", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [google()],
      callbacks: {
        signIn({ account, profile }) {
          if (account?.provider === "google") {
            return !!profile?.email_verified && !!profile?.email?.endsWith("@example.test")
          }
          return true // Do different verification for other providers that don't have `email_verified`
        },
      },
    }
    const { browser, done } = await signInWithGoogle(config)
    expect(done.status).toBe(302)
    expect((await browser.session())?.user?.email).toBe("ada@example.test")
  })
})

describe("callbacks.redirect (authjs.dev/reference/core#redirect)", () => {
  test("the docs' default-like redirect callback", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [google()],
      callbacks: {
        redirect({ url, baseUrl }) {
          // Allows relative callback URLs
          if (url.startsWith("/")) return `${baseUrl}${url}`
          // Allows callback URLs on the same origin
          else if (new URL(url).origin === baseUrl) return url
          return baseUrl
        },
      },
    }
    const { done } = await signInWithGoogle(config, "/dashboard?tab=1")
    expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard?tab=1`)
    const evil = await signInWithGoogle(config, "https://evil.example/x")
    expect(evil.done.headers.get("location")).toBe(ORIGIN)
  })
})

describe("callbacks.jwt trigger and update()", () => {
  test("trigger signIn carries account and profile; trigger update carries the client's data", async () => {
    const triggers: (string | undefined)[] = []
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [google()],
      callbacks: {
        jwt({ token, trigger, session, account, profile }) {
          triggers.push(trigger)
          if (trigger === "signIn") {
            expect(account?.provider).toBe("google")
            expect(profile?.sub).toBe("ada")
          }
          if (trigger === "update" && session?.name) {
            // Note, that `session` can be any arbitrary object, remember to validate it!
            token.name = session.name
          }
          return token
        },
      },
    }
    const { browser } = await signInWithGoogle(config)
    const csrfToken = await browser.csrfToken()
    const updated = await browser.fetch("/auth/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ csrfToken, data: { name: "Countess Lovelace" } }),
    })
    expect(updated.status).toBe(200)
    expect(((await updated.json()) as any).user.name).toBe("Countess Lovelace")
    expect((await browser.session()).user.name).toBe("Countess Lovelace")
    expect(triggers[0]).toBe("signIn")
    expect(triggers).toContain("update")
  })
})
