/**
 * authjs.dev/guides/creating-a-database-adapter, imports changed to `@tessera/*`: a
 * hand-written adapter object with only the methods the guide lists (user management, then
 * database sessions), typed with `Adapter` from `@tessera/core/adapters`, against a real
 * OpenID Provider; `session: { strategy, maxAge, updateAge, generateSessionToken }`
 * (authjs.dev/reference/core#session) with it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest"
import { startOidcProvider, type OidcProviderServer } from "@tessera/testing"
import { Auth, type AuthConfig } from "@tessera/core"
import type { Adapter, AdapterAccount, AdapterSession, AdapterUser } from "@tessera/core/adapters"
import { SECRET } from "../harness/index.js"
import { oidcSignIn } from "./oidc-sign-in.js"

const ORIGIN = "http://localhost:3000"
let idp: OidcProviderServer

beforeAll(async () => {
  idp = await startOidcProvider({ redirectUris: [`${ORIGIN}/auth/callback/corp`] })
})
afterAll(async () => {
  await idp?.stop()
})
afterEach(() => void vi.useRealTimers())

/** The guide's user management methods, over Maps; `calls` counts what was called. */
function userManagement() {
  const users = new Map<string, AdapterUser>()
  const accounts = new Map<string, AdapterAccount>()
  const calls: string[] = []
  const adapter = {
    async createUser(user: AdapterUser) {
      calls.push("createUser")
      const created = { ...user, id: crypto.randomUUID() }
      users.set(created.id, created)
      return created
    },
    async getUser(id: string) {
      calls.push("getUser")
      return users.get(id) ?? null
    },
    async getUserByEmail(email: string) {
      calls.push("getUserByEmail")
      return [...users.values()].find((u) => u.email === email) ?? null
    },
    async getUserByAccount({
      provider,
      providerAccountId,
    }: Pick<AdapterAccount, "provider" | "providerAccountId">) {
      calls.push("getUserByAccount")
      const account = accounts.get(`${provider}:${providerAccountId}`)
      return account ? (users.get(account.userId) ?? null) : null
    },
    async updateUser(user: Partial<AdapterUser> & Pick<AdapterUser, "id">) {
      calls.push("updateUser")
      const updated = { ...users.get(user.id)!, ...user }
      users.set(user.id, updated)
      return updated
    },
    async linkAccount(account: AdapterAccount) {
      calls.push("linkAccount")
      accounts.set(`${account.provider}:${account.providerAccountId}`, account)
    },
  } satisfies Adapter
  return { adapter, users, accounts, calls }
}

/** The guide's database session methods, added to the user management ones. */
function withDatabaseSessions() {
  const base = userManagement()
  const sessions = new Map<string, AdapterSession>()
  const adapter: Adapter = {
    ...base.adapter,
    async createSession(session) {
      base.calls.push("createSession")
      sessions.set(session.sessionToken, session)
      return session
    },
    async getSessionAndUser(sessionToken) {
      base.calls.push("getSessionAndUser")
      const session = sessions.get(sessionToken)
      const user = session && base.users.get(session.userId)
      return session && user ? { session, user } : null
    },
    async updateSession(session) {
      base.calls.push("updateSession")
      const updated = { ...sessions.get(session.sessionToken)!, ...session }
      sessions.set(session.sessionToken, updated)
      return updated
    },
    async deleteSession(sessionToken) {
      base.calls.push("deleteSession")
      sessions.delete(sessionToken)
    },
  }
  return { ...base, adapter, sessions }
}

const corp = () => ({
  id: "corp",
  name: "Corp",
  type: "oidc" as const,
  issuer: idp.issuer,
  clientId: idp.clientId,
  clientSecret: idp.clientSecret,
  dangerouslyAllowInsecureHttpRequests: true,
})

/** Signs Ada in through the OpenID Provider with real Requests, without an error. */
async function signInWithCorp(config: AuthConfig) {
  const result = await oidcSignIn(config, "corp", { origin: ORIGIN })
  expect(new URL(result.done.headers.get("location")!).searchParams.get("error")).toBeNull()
  return result
}

describe("a hand-written adapter (authjs.dev/guides/creating-a-database-adapter)", () => {
  test("user management methods only, JWT sessions: the user and account are stored", async () => {
    const { adapter, users, accounts, calls } = userManagement()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      session: { strategy: "jwt" },
      providers: [corp()],
    }
    const { send } = await signInWithCorp(config)
    const session = (await (await send("/auth/session")).json()) as { user: { email: string } }
    expect(session.user.email).toBe("ada@example.test")
    expect([...users.values()].map((u) => u.email)).toEqual(["ada@example.test"])
    expect([...accounts.values()][0]).toMatchObject({ provider: "corp", type: "oidc" })
    expect(calls).toEqual(expect.arrayContaining(["getUserByAccount", "createUser", "linkAccount"]))

    // A second sign-in finds the user by account; nothing new is created.
    const creates = calls.filter((c) => c === "createUser").length
    await signInWithCorp(config)
    expect(calls.filter((c) => c === "createUser").length).toBe(creates)
    expect(users.size).toBe(1)
  })

  test("plus the session methods: database sessions, generateSessionToken, updateAge, sign-out", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"))
    const { adapter, sessions, calls } = withDatabaseSessions()
    const tokens: string[] = []
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      providers: [corp()],
      session: {
        strategy: "database",
        maxAge: 30 * 24 * 60 * 60,
        updateAge: 24 * 60 * 60,
        generateSessionToken: () => {
          const token = `my-${crypto.randomUUID()}`
          tokens.push(token)
          return token
        },
      },
    }
    const { jar, send } = await signInWithCorp(config)
    expect(tokens).toHaveLength(1)
    expect(jar.get("tessera.session-token")).toBe(tokens[0])
    expect(sessions.size).toBe(1)
    // Stored as its SHA-256, not as the cookie holds it (Tessera, on purpose).
    expect([...sessions.keys()][0]).not.toBe(tokens[0])

    const first = (await (await send("/auth/session")).json()) as { expires: string }
    expect(first.expires).toBe("2026-01-31T00:00:00.000Z")

    // Within updateAge the session is read, not written.
    vi.setSystemTime(new Date("2026-01-01T12:00:00Z"))
    await send("/auth/session")
    expect(calls).not.toContain("updateSession")

    // Past updateAge it is extended to now + maxAge.
    vi.setSystemTime(new Date("2026-01-02T06:00:00Z"))
    const later = (await (await send("/auth/session")).json()) as { expires: string }
    expect(calls).toContain("updateSession")
    expect(later.expires).toBe("2026-02-01T06:00:00.000Z")

    // Sign-out deletes it.
    const { csrfToken } = (await (await send("/auth/csrf")).json()) as { csrfToken: string }
    await send("/auth/signout", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken }),
    })
    expect(calls).toContain("deleteSession")
    expect(sessions.size).toBe(0)
    expect(await (await send("/auth/session")).json()).toBeNull()
  })

  test("database sessions without the session methods are refused at start (Tessera, on purpose)", async () => {
    const { adapter } = userManagement()
    const logged: Error[] = []
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      providers: [corp()],
      logger: { error: (e) => void logged.push(e) },
    }
    const response = await Auth(new Request(`${ORIGIN}/auth/session`), config)
    expect(response.status).toBe(500)
    expect(logged.map((e) => (e as { type?: string }).type)).toContain("MissingAdapterMethods")
  })
})
