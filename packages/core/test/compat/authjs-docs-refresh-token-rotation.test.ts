/**
 * Auth.js v5's "Refresh token rotation" guide (authjs.dev/guides/refresh-token-rotation,
 * JWT strategy), imports changed to `@tessera/*`, against a real OpenID Provider that
 * issues and rotates refresh tokens: the `jwt` callback keeps `account`'s tokens at
 * sign-in, refreshes them at the token endpoint once `expires_at` has passed, and
 * the `session` callback reports a failed refresh as `session.error`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest"
import { completeOidcLogin, startOidcProvider, type OidcProviderServer } from "@tessera/testing"
import type { AuthConfig } from "@tessera/core"
import Google from "@tessera/core/providers/google"
import { Browser, SECRET } from "../harness/index.js"

declare module "@tessera/core/types" {
  interface Session {
    error?: "RefreshTokenError"
  }
}

const ORIGIN = "http://localhost:3000"
let idp: OidcProviderServer
let tokenEndpoint: string

beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/google`],
    tokenEndpointAuthMethod: "client_secret_post",
  })
  const discovery = await fetch(`${idp.issuer}/.well-known/openid-configuration`)
  tokenEndpoint = ((await discovery.json()) as { token_endpoint: string }).token_endpoint
})
afterAll(async () => {
  await idp?.stop()
})
afterEach(() => {
  vi.useRealTimers()
})

/** What the refresh sends as the client secret, and how many refreshes the provider answered. */
const refresh = { secret: "", count: 0 }

function docsConfig(): AuthConfig {
  refresh.secret = idp.clientSecret
  refresh.count = 0
  return {
    secret: SECRET,
    trustHost: true,
    providers: [
      Google({
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        issuer: idp.issuer,
        dangerouslyAllowInsecureHttpRequests: true,
        // Google requires "offline" access_type to provide a `refresh_token`
        // (oidc-provider: the offline_access scope)
        authorization: {
          params: {
            access_type: "offline",
            prompt: "consent",
            scope: "openid profile email offline_access",
          },
        },
      }),
    ],
    callbacks: {
      async jwt({ token, account }) {
        if (account) {
          // First-time login, save the `access_token`, its expiry and the `refresh_token`
          return {
            ...token,
            access_token: account.access_token,
            expires_at: account.expires_at,
            refresh_token: account.refresh_token,
          }
        } else if (Date.now() < (token.expires_at as number) * 1000) {
          // Subsequent logins, but the `access_token` is still valid
          return token
        } else {
          // Subsequent logins, but the `access_token` has expired, try to refresh it
          if (!token.refresh_token) throw new TypeError("Missing refresh_token")
          try {
            // The `token_endpoint` can be found in the provider's documentation. Or if they support OIDC,
            // at their `/.well-known/openid-configuration` endpoint.
            const response = await fetch(tokenEndpoint, {
              method: "POST",
              body: new URLSearchParams({
                client_id: idp.clientId,
                client_secret: refresh.secret,
                grant_type: "refresh_token",
                refresh_token: token.refresh_token as string,
              }),
            })
            const tokensOrError = await response.json()
            if (!response.ok) throw tokensOrError
            refresh.count++
            const newTokens = tokensOrError as {
              access_token: string
              expires_in: number
              refresh_token?: string
            }
            return {
              ...token,
              access_token: newTokens.access_token,
              expires_at: Math.floor(Date.now() / 1000 + newTokens.expires_in),
              // Some providers only issue refresh tokens once, so preserve if we did not get a new one
              refresh_token: newTokens.refresh_token
                ? newTokens.refresh_token
                : token.refresh_token,
            }
          } catch {
            // The error property can be used client-side to handle the refresh token error
            return { ...token, error: "RefreshTokenError" as const }
          }
        }
      },
      async session({ session, token }) {
        session.error = token.error as "RefreshTokenError" | undefined
        return session
      },
    },
  }
}

describe("authjs.dev/guides/refresh-token-rotation (JWT strategy)", () => {
  test("sign-in keeps the tokens; after expires_at the jwt callback refreshes them", async () => {
    const config = docsConfig()
    const browser = new Browser(config)
    const start = await browser.startSignIn("google")
    const authorize = new URL(start.headers.get("location")!)
    expect(authorize.searchParams.get("access_type")).toBe("offline")
    expect(authorize.searchParams.get("prompt")).toBe("consent")
    const back = await completeOidcLogin(authorize, { accountId: "ada" })
    const done = await browser.request(back.url.href)
    expect(done.status).toBe(302)

    const first = await browser.session()
    expect(first.user.email).toBe("ada@example.test")
    expect(first.error).toBeUndefined()

    // An hour and a bit later: the access token has expired.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 3700 * 1000 })
    const refreshed = await browser.session()
    expect(refreshed.user.email).toBe("ada@example.test")
    expect(refreshed.error).toBeUndefined()
    expect(refresh.count).toBe(1)
    // The refreshed token is kept: the next read within the hour does not refresh again.
    await browser.session()
    expect(refresh.count).toBe(1)
  })

  test("a refresh the provider refuses: session.error is RefreshTokenError", async () => {
    const config = docsConfig()
    const browser = new Browser(config)
    const start = await browser.startSignIn("google")
    const back = await completeOidcLogin(start.headers.get("location")!, { accountId: "ada" })
    await browser.request(back.url.href)
    // The provider refuses the refresh (here: a client secret it does not know).
    refresh.secret = "not-the-secret"
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 3700 * 1000 })
    const session = await browser.session()
    expect(session.error).toBe("RefreshTokenError")
  })
})
