/**
 * Found by bench/compat-diff.mjs (Tessera against `@auth/core` 0.41.3, both signing in through
 * the same kind of live OpenID provider): what the callbacks of an OAuth sign-in are given.
 *
 * - The `account` of the `signIn` and `jwt` callbacks and of the `signIn` event. Auth.js passes
 *   the whole token response, `{ ...tokens, provider, type, providerAccountId }`
 *   (lib/actions/callback/oauth/callback.ts, `getUserAndAccount`), so `account.expires_in` and a
 *   provider's own token fields are there (the docs' `Date.now() + account.expires_in * 1000`);
 *   only the adapter's `linkAccount` gets the fields the provider's `account()` keeps
 *   (handle-login.ts). Tessera gave the callbacks the stored fields alone.
 * - The `user` of the `signIn` callback when the account is linked already. Auth.js asks the
 *   adapter first and passes the stored user (`userByAccount ?? userFromProvider`,
 *   lib/actions/callback/index.ts), so an allow-list or role check can read the user's own id
 *   and fields. Tessera passed the provider's user.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { MemoryAdapter, startOidcProvider, type OidcProviderServer } from "@tessera/testing"
import type { Adapter, AdapterAccount, AuthConfig } from "@tessera/core"
import { SECRET } from "../harness/index.js"
import { oidcSignIn } from "./oidc-sign-in.js"

const ORIGIN = "http://localhost:3000"
let idp: OidcProviderServer

beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/local`],
    accounts: { ada: { name: "Ada Lovelace", email: "ada@example.test" } },
  })
})
afterAll(async () => {
  await idp?.stop()
})

function local() {
  return {
    id: "local",
    name: "Local",
    type: "oidc" as const,
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    dangerouslyAllowInsecureHttpRequests: true,
  }
}

describe("the account the callbacks get holds the whole token response (Auth.js)", () => {
  test("signIn, jwt and the signIn event see expires_in; linkAccount stores what account() keeps", async () => {
    const seen: Record<string, Record<string, unknown>> = {}
    const linked: AdapterAccount[] = []
    const memory = MemoryAdapter()
    // The memory adapter creates a user with its account in one call (`createUserAndAccount`).
    const adapter: Adapter = {
      ...memory,
      async createUserAndAccount(user, account) {
        linked.push(account)
        return memory.createUserAndAccount!(user, account)
      },
    }
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      session: { strategy: "jwt" },
      providers: [local()],
      callbacks: {
        signIn({ account }) {
          seen.signIn = { ...account }
          return true
        },
        jwt({ token, account }) {
          if (account) {
            seen.jwt = { ...account }
            // The pattern of Auth.js's refresh-token examples.
            token.accessTokenExpires = Date.now() + Number(account.expires_in) * 1000
          }
          return token
        },
      },
      events: {
        signIn({ account }) {
          seen.event = { ...account }
        },
      },
    }
    const { session } = await oidcSignIn(config, "local")
    expect(session?.user?.email).toBe("ada@example.test")

    for (const account of [seen.signIn, seen.jwt, seen.event]) {
      expect(account).toMatchObject({
        provider: "local",
        type: "oidc",
        providerAccountId: "ada",
        token_type: "bearer",
        expires_in: 3600,
        scope: "openid profile email",
      })
      expect(typeof account!.access_token).toBe("string")
      expect(typeof account!.id_token).toBe("string")
      expect(typeof account!.expires_at).toBe("number")
    }
    // The adapter stores the account's columns only, as Auth.js's default `account()` keeps them.
    expect(linked).toHaveLength(1)
    expect(linked[0]).not.toHaveProperty("expires_in")
    expect(linked[0]).toMatchObject({ provider: "local", providerAccountId: "ada", type: "oidc" })
    expect(typeof linked[0]!.expires_at).toBe("number")
  })
})

describe("a returning user's signIn callback gets the stored user (Auth.js)", () => {
  test("the second sign-in's signIn callback sees the adapter's user, not the provider's", async () => {
    const users: Array<Record<string, unknown>> = []
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      providers: [local()],
      callbacks: {
        signIn({ user }) {
          users.push({ ...user })
          return true
        },
      },
    }
    await oidcSignIn(config, "local")
    const stored = await adapter.getUserByAccount!({ provider: "local", providerAccountId: "ada" })
    expect(stored).not.toBeNull()

    const { session } = await oidcSignIn(config, "local")
    expect(session?.user?.email).toBe("ada@example.test")
    expect(users).toHaveLength(2)
    // First sign-in: nobody is stored yet, the provider's user (Auth.js: the same).
    expect(users[0]).toMatchObject({ name: "Ada Lovelace", email: "ada@example.test" })
    // Second: the stored user, with its own id and `emailVerified`.
    expect(users[1]).toEqual({ ...stored })
    expect(users[1]!.id).toBe(stored!.id)
  })
})
