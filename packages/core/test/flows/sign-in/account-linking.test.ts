/**
 * Users and accounts decided at sign-in, end to end through `Auth()` with real
 * OAuth sign-ins against a loopback authorization server, on the memory
 * adapter and on SQLite in a real file.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import type { Adapter } from "@tessera/core/adapters"
import { oauthSignIn, startStandin, type Standin } from "./loopback-oauth.js"
import { memoryBackend, sqliteBackend, type Backend } from "../../harness/backends.js"
import {
  ADA,
  get,
  type Jar,
  makeConfig,
  ORIGIN,
  sessionCookieName,
  setCookie,
  signIn,
} from "../../harness/index.js"

let standin: Standin
beforeAll(async () => {
  standin = await startStandin()
})
afterAll(async () => {
  await standin?.stop()
})

const typesOf = (errors: Error[]) => errors.map((e) => (e as { type?: string }).type ?? e.name)
/** The app's root: the default callback URL (with or without the trailing slash a remembered URL gets). */
const HOME = expect.stringMatching(/^http:\/\/localhost:3000\/?$/)
const NOT_LINKED = `${ORIGIN}/auth/signin?error=OAuthAccountNotLinked`

async function sessionOf(config: AuthConfig, jar: Jar) {
  const response = await Auth(get("/auth/session", { jar }), config)
  return (await response.json()) as { user: { email: string; id?: string } } | null
}

/** Adds the user id to the session, so tests can see who is signed in. */
const withUserId = {
  session: ({ session, user }: any) => ({ ...session, user: { ...session.user, id: user.id } }),
}

describe.each([
  ["memory", async () => memoryBackend()],
  ["sqlite", sqliteBackend],
] as const)("account linking on %s", (_name, makeBackend) => {
  let backend: Backend
  beforeEach(async () => {
    backend = await makeBackend()
  })
  afterEach(async () => {
    await backend.close()
  })

  function config(
    overrides: Partial<AuthConfig> = {},
    providerOptions: Record<string, unknown> = {},
    events: string[] = [],
  ) {
    return makeConfig({
      adapter: backend.adapter,
      providers: [standin.provider(providerOptions), ...(overrides.providers ?? [])],
      callbacks: withUserId,
      events: {
        createUser: ({ user }) => void events.push(`createUser:${user.email}`),
        linkAccount: ({ user, account }) =>
          void events.push(`linkAccount:${user.email}:${account.providerAccountId}`),
        signIn: ({ user, isNewUser }) => void events.push(`signIn:${user.email}:${isNewUser}`),
      },
      ...Object.fromEntries(Object.entries(overrides).filter(([k]) => k !== "providers")),
    })
  }

  test("a first sign-in creates the user with the account; the next one finds them", async () => {
    const events: string[] = []
    const { config: c, log } = config({ pages: { newUser: "/welcome" } }, {}, events)
    const first = await oauthSignIn(c, standin, {
      id: "gh-1",
      email: "Ada@Example.COM",
      name: "Ada",
    })
    expect(first.response.headers.get("location")).toBe(
      `/welcome?callbackUrl=${encodeURIComponent(`${ORIGIN}/`)}`,
    )
    const users = await backend.users()
    expect(users).toEqual([
      expect.objectContaining({ email: "ada@example.com", name: "Ada", emailVerified: null }),
    ])
    expect(await backend.accounts()).toEqual([
      { userId: users[0]!.id, provider: "standin", providerAccountId: "gh-1", type: "oauth" },
    ])
    expect(events).toEqual([
      "createUser:ada@example.com",
      "linkAccount:ada@example.com:gh-1",
      "signIn:ada@example.com:true",
    ])
    expect((await sessionOf(c, first.jar))?.user.id).toBe(users[0]!.id)

    events.length = 0
    const again = await oauthSignIn(c, standin, {
      id: "gh-1",
      email: "ada@example.com",
      name: "Ada",
    })
    expect(again.response.headers.get("location")).toEqual(HOME)
    expect(await backend.users()).toHaveLength(1)
    expect(await backend.accounts()).toHaveLength(1)
    expect(events).toEqual(["signIn:ada@example.com:false"])
    expect(log.errors).toEqual([])
  })

  test("an e-mail that belongs to another user: OAuthAccountNotLinked, nothing written", async () => {
    const existing = await backend.adapter.createUser!({
      id: crypto.randomUUID(),
      email: "ada@example.com",
      name: "Ada",
      emailVerified: new Date(),
      image: null,
    })
    const { config: c } = config()
    // Case does not matter: the address is the same.
    const { response, jar } = await oauthSignIn(c, standin, {
      id: "gh-2",
      email: "ADA@example.com",
    })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(NOT_LINKED)
    expect(setCookie(response, sessionCookieName())).toBeUndefined()
    expect(await backend.users()).toEqual([expect.objectContaining({ id: existing.id })])
    expect(await backend.accounts()).toEqual([])
    expect(await backend.sessions()).toEqual([])
    expect(await sessionOf(c, jar)).toBeNull()

    const page = await Auth(get("/auth/signin?error=OAuthAccountNotLinked"), c)
    expect(await page.text()).toContain(
      "This email address already belongs to an account. Sign in the way you did before, then link this sign-in method from your account.",
    )
  })

  test("allowDangerousEmailAccountLinking links to the user with that e-mail, when both sides verified it", async () => {
    const existing = await backend.adapter.createUser!({
      id: crypto.randomUUID(),
      email: "ada@example.com",
      name: "Ada",
      emailVerified: new Date(),
      image: null,
    })
    const events: string[] = []
    const { config: c } = config(
      {},
      {
        allowDangerousEmailAccountLinking: true,
        verifiedEmail: (profile: { email?: string }) => profile.email ?? null,
      },
      events,
    )
    const { response, jar } = await oauthSignIn(c, standin, {
      id: "gh-3",
      email: "ada@example.com",
    })
    expect(response.headers.get("location")).toEqual(HOME)
    expect(await backend.users()).toHaveLength(1)
    expect(await backend.accounts()).toEqual([
      expect.objectContaining({ userId: existing.id, providerAccountId: "gh-3" }),
    ])
    expect(events).toEqual(["linkAccount:ada@example.com:gh-3", "signIn:ada@example.com:false"])
    expect((await sessionOf(c, jar))?.user.id).toBe(existing.id)
  })

  test("an OAuth sign-in while signed in links the account to the current user", async () => {
    const events: string[] = []
    const { config: c } = config(
      { providers: [(await import("../../harness/index.js")).credentialsProvider()] },
      {},
      events,
    )
    const { jar } = await signIn(c) // credentials: Ada, stored with a database session
    events.length = 0
    // A different e-mail at the provider: linking follows the session, not the address.
    const { response } = await oauthSignIn(
      c,
      standin,
      { id: "gh-4", email: "lovelace@work.example" },
      jar,
    )
    expect(response.headers.get("location")).toEqual(HOME)
    expect(await backend.users()).toEqual([expect.objectContaining({ id: ADA.id })])
    expect(await backend.accounts()).toEqual([
      expect.objectContaining({ userId: ADA.id, providerAccountId: "gh-4" }),
    ])
    expect(events).toEqual([`linkAccount:${ADA.email}:gh-4`, `signIn:${ADA.email}:false`])
    expect((await sessionOf(c, jar))?.user.id).toBe(ADA.id)
    expect(await backend.sessions()).toHaveLength(1) // the old session row was replaced

    // Signed out, the linked account alone now signs Ada in.
    const fresh = await oauthSignIn(c, standin, { id: "gh-4", email: "lovelace@work.example" })
    expect((await sessionOf(c, fresh.jar))?.user.id).toBe(ADA.id)
  })

  test("an account linked to someone else cannot be used while signed in as another user", async () => {
    const { config: c } = config({
      providers: [(await import("../../harness/index.js")).credentialsProvider()],
    })
    await oauthSignIn(c, standin, { id: "gh-5", email: "grace@example.com" }) // Grace's account
    const { jar } = await signIn(c) // Ada signs in
    const adaCookie = jar.get(sessionCookieName())

    const { response } = await oauthSignIn(
      c,
      standin,
      { id: "gh-5", email: "grace@example.com" },
      jar,
    )
    expect(response.headers.get("location")).toBe(NOT_LINKED)
    expect(jar.get(sessionCookieName())).toBe(adaCookie) // still Ada, untouched
    expect((await sessionOf(c, jar))?.user.email).toBe(ADA.email)
    const grace = (await backend.users()).find((u) => u.email === "grace@example.com")!
    expect(await backend.accounts()).toEqual([
      expect.objectContaining({ userId: grace.id, providerAccountId: "gh-5" }),
    ])
  })

  test("a profile without e-mail creates a user without one", async () => {
    const { config: c } = config()
    await oauthSignIn(c, standin, { id: "gh-6", email: null, name: "Anon" })
    await oauthSignIn(c, standin, { id: "gh-7", email: null, name: "Anon 2" })
    expect((await backend.users()).map((u) => u.email)).toEqual([null, null])
    expect(await backend.accounts()).toHaveLength(2)
  })

  test("throwing createUser and linkAccount handlers are logged; the sign-in goes on", async () => {
    const { config: c, log } = makeConfig({
      adapter: backend.adapter,
      providers: [standin.provider()],
      events: {
        createUser: () => {
          throw new Error("crm down")
        },
        linkAccount: () => {
          throw new Error("audit log down")
        },
      },
    })
    const { response, jar } = await oauthSignIn(c, standin, {
      id: "gh-8",
      email: "ada@example.com",
    })
    expect(response.headers.get("location")).toEqual(HOME)
    expect(await sessionOf(c, jar)).toMatchObject({ user: { email: "ada@example.com" } })
    expect(typesOf(log.errors)).toEqual(["EventError", "EventError"])
  })
})

describe("account linking without createUserAndAccount (the two-step fallback)", () => {
  function withoutTransaction(adapter: Adapter, failLink = false): Adapter {
    const { createUserAndAccount: _omitted, ...rest } = adapter as Adapter & Record<string, unknown>
    return {
      ...rest,
      linkAccount: async (account) => {
        if (failLink) throw new Error("connection reset while linking")
        return adapter.linkAccount!(account)
      },
    } as Adapter
  }

  test("creates the user, then links, then fires the events", async () => {
    const backend = memoryBackend()
    const events: string[] = []
    const { config } = makeConfig({
      adapter: withoutTransaction(backend.adapter),
      providers: [standin.provider()],
      events: {
        createUser: () => void events.push("createUser"),
        linkAccount: () => void events.push("linkAccount"),
      },
    })
    const { response } = await oauthSignIn(config, standin, {
      id: "gh-9",
      email: "ada@example.com",
    })
    expect(response.headers.get("location")).toEqual(HOME)
    expect(await backend.accounts()).toHaveLength(1)
    expect(events).toEqual(["createUser", "linkAccount"])
  })

  test("a failed link deletes the user just created: no user without its account", async () => {
    const backend = memoryBackend()
    const events: string[] = []
    const failing = makeConfig({
      adapter: withoutTransaction(backend.adapter, true),
      providers: [standin.provider()],
      events: { createUser: () => void events.push("createUser") },
    })
    const { response } = await oauthSignIn(failing.config, standin, {
      id: "gh-10",
      email: "ada@example.com",
    })
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(typesOf(failing.log.errors)).toEqual(["AdapterError"])
    expect(await backend.users()).toEqual([])
    expect(await backend.accounts()).toEqual([])
    expect(events).toEqual([])

    // So a retry, once the database is back, is a clean first sign-in (not OAuthAccountNotLinked).
    const { config } = makeConfig({
      adapter: withoutTransaction(backend.adapter),
      providers: [standin.provider()],
    })
    const retry = await oauthSignIn(config, standin, { id: "gh-10", email: "ada@example.com" })
    expect(retry.response.headers.get("location")).toEqual(HOME)
  })
})

describe("account linking with JWT sessions and an adapter", () => {
  test("the signed-in user (token.sub) gets the new account", async () => {
    const backend = memoryBackend()
    const { config } = makeConfig({
      adapter: backend.adapter,
      session: { strategy: "jwt" },
      providers: [standin.provider()],
    })
    const { jar } = await oauthSignIn(config, standin, { id: "gh-11", email: "ada@example.com" })
    await oauthSignIn(config, standin, { id: "other-12", email: "ada@elsewhere.example" }, jar)
    const [user, ...others] = await backend.users()
    expect(others).toEqual([])
    expect((await backend.accounts()).map((a) => [a.userId, a.providerAccountId])).toEqual([
      [user!.id, "gh-11"],
      [user!.id, "other-12"],
    ])
    // JWT sessions: the table holds only their records (no token of a database session).
    const sessions = await backend.sessions()
    expect(sessions.every((s) => s.sessionToken.startsWith("record:"))).toBe(true)
    expect(sessions.every((s) => s.userId === user!.id)).toBe(true)
  })
})
