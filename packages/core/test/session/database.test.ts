/**
 * The database session strategy, through `Auth()`, on the memory adapter,
 * SQLite in a real file, and PostgreSQL (a private server, when one can start).
 */
import { createHash } from "node:crypto"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest"
import { Auth, getSession, type AuthConfig } from "@tessera/core"
import type { Adapter } from "@tessera/core/adapters"
import Credentials from "@tessera/core/providers/credentials"
import { memoryBackend, PostgresFixture, sqliteBackend, type Backend } from "../harness/backends.js"
import { countingAdapter } from "../flows/email/fixtures.js"
import {
  ADA,
  csrfToken,
  get,
  isExpired,
  Jar,
  makeConfig,
  ORIGIN,
  post,
  sessionCookieName,
  setCookie,
  signIn,
} from "../harness/index.js"

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex")
const COOKIE = sessionCookieName()
const typesOf = (errors: Error[]) => errors.map((e) => (e as { type?: string }).type ?? e.name)

const postgres = new PostgresFixture()
beforeAll(async () => {
  await postgres.start()
}, 60_000)
afterAll(async () => {
  await postgres.stop()
})

async function readSession(config: AuthConfig, jar: Jar) {
  const response = await Auth(get("/auth/session", { jar }), config)
  jar.update(response)
  return { response, body: (await response.json()) as Record<string, any> | null }
}

describe.each([
  ["memory", async () => memoryBackend()],
  ["sqlite", sqliteBackend],
  ["postgres", () => postgres.backend()],
] as const)("database sessions on %s", (_name, makeBackend) => {
  let backend: Backend
  let counting: ReturnType<typeof countingAdapter<Adapter>>
  beforeEach(async () => {
    backend = await makeBackend()
    counting = countingAdapter(backend.adapter)
  })
  afterEach(async () => {
    await backend.close()
  })

  const config = (overrides: Partial<AuthConfig> = {}) =>
    makeConfig({ adapter: counting.adapter, ...overrides })

  test("are the default with an adapter; credentials sign-in stores the user and only the token's SHA-256", async () => {
    const { config: c, log } = config()
    const { response, jar } = await signIn(c)
    expect(response.status).toBe(302)
    const cookie = setCookie(response, COOKIE)!
    expect(cookie.value).toMatch(/^[0-9a-f]{64}$/) // 256 bits from the CSPRNG
    expect(cookie.attributes).toMatchObject({ httponly: true, samesite: "Lax", path: "/" })
    const expires = Date.parse(String(cookie.attributes.expires))
    expect(Math.abs(expires - (Date.now() + 30 * 24 * 3600_000))).toBeLessThan(5000)

    const sessions = await backend.sessions()
    // The row is also the session's record: an id, when it started, no provider-side ids.
    expect(sessions).toEqual([
      expect.objectContaining({
        sessionToken: sha256(cookie.value),
        userId: ADA.id,
        expires: expect.any(Date),
        id: expect.stringMatching(/^[0-9a-f]{32}$/),
        createdAt: expect.any(Date),
        provider: "credentials",
      }),
    ])
    expect(JSON.stringify(sessions)).not.toContain(cookie.value)
    expect(await backend.users()).toEqual([
      expect.objectContaining({ id: ADA.id, email: ADA.email, name: ADA.name }),
    ])

    const { body } = await readSession(c, jar)
    expect(body).toEqual({
      user: { name: ADA.name, email: ADA.email, image: ADA.image },
      expires: expect.any(String),
    })
    expect(log.errors).toEqual([])
  })

  test("a check is one adapter call; the session callback receives the stored user", async () => {
    const seen: any[] = []
    const { config: c } = config({
      callbacks: {
        session: ({ session, user, token }: any) => {
          seen.push({ user, token })
          return { ...session, user: { ...session.user, id: user.id } }
        },
      },
    })
    const { jar } = await signIn(c)
    counting.calls.clear()
    const { response, body } = await readSession(c, jar)
    expect(counting.total()).toBe(1)
    expect(counting.calls.get("getSessionAndUser")).toBe(1)
    expect(response.headers.getSetCookie()).toEqual([]) // nothing to refresh yet
    expect(response.headers.get("cache-control")).toContain("no-store")
    expect(body?.user).toMatchObject({ id: ADA.id, email: ADA.email })
    expect(seen).toEqual([
      {
        user: expect.objectContaining({ id: ADA.id, email: ADA.email, emailVerified: null }),
        token: undefined,
      },
    ])
  })

  test("the session callback receives the adapter session (hashed token, Date expiry) with the user, as in Auth.js", async () => {
    const seen: any[] = []
    const { config: c } = config({
      callbacks: {
        session: (params: any) => {
          seen.push(params)
          return params.session
        },
      },
    })
    const { response: signedIn, jar } = await signIn(c)
    const raw = setCookie(signedIn, COOKIE)!.value
    await readSession(c, jar)
    expect(seen).toHaveLength(1)
    const { session, user } = seen[0]
    // Auth.js's fields, and the session record's (Tessera's session management).
    expect(session).toEqual({
      sessionToken: sha256(raw),
      userId: ADA.id,
      expires: expect.any(Date),
      user: expect.objectContaining({ id: ADA.id, email: ADA.email, emailVerified: null }),
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      createdAt: expect.any(Date),
      lastSeenAt: expect.any(Date),
      userAgent: null,
      ipPrefix: null,
      provider: "credentials",
      providerAccountId: ADA.id,
      providerSessionId: null,
    })
    expect(session.user).toEqual(user)
    // The raw cookie value never reaches app code.
    expect(JSON.stringify(seen)).not.toContain(raw)
  })

  test("the default session callback answers the Date expiry as an ISO string", async () => {
    const { config: c } = config()
    const { jar } = await signIn(c)
    const { body } = await readSession(c, jar)
    expect(body?.expires).toBe(new Date(Date.parse(body?.expires)).toISOString())
    expect(Object.keys(body ?? {}).sort()).toEqual(["expires", "user"])
  })

  test("the expiry is extended at most once per updateAge", async () => {
    const { config: c } = config({ session: { maxAge: 3600, updateAge: 300 } })
    const { jar } = await signIn(c)
    const [created] = await backend.sessions()

    // Fresh: reads do not write.
    counting.calls.clear()
    await readSession(c, jar)
    await readSession(c, jar)
    expect(counting.calls.get("updateSession")).toBeUndefined()
    expect((await backend.sessions())[0]!.expires.valueOf()).toBe(created!.expires.valueOf())

    // Last extended 301 s ago: one read extends it, the next does not.
    await backend.setSessionExpires(
      created!.sessionToken,
      new Date(Date.now() + (3600 - 301) * 1000),
    )
    const { response } = await readSession(c, jar)
    const cookie = setCookie(response, COOKIE)!
    expect(cookie.value).toBe(jar.get(COOKIE)) // same token, new expiry
    const extended = (await backend.sessions())[0]!.expires.valueOf()
    expect(Math.abs(extended - (Date.now() + 3600_000))).toBeLessThan(5000)
    expect(Math.abs(Date.parse(String(cookie.attributes.expires)) - extended)).toBeLessThan(2500) // HTTP dates have 1 s precision
    expect(Number(cookie.attributes["max-age"])).toBeGreaterThan(3590)
    await readSession(c, jar)
    expect(counting.calls.get("updateSession")).toBe(1)
  })

  test("an expired session is deleted when read, and its cookie cleared", async () => {
    const { config: c } = config()
    const { jar } = await signIn(c)
    const [row] = await backend.sessions()
    await backend.setSessionExpires(row!.sessionToken, new Date(Date.now() - 1000))
    const { response, body } = await readSession(c, jar)
    expect(response.status).toBe(200)
    expect(body).toBeNull()
    expect(isExpired(setCookie(response, COOKIE)!)).toBe(true)
    expect(await backend.sessions()).toEqual([])
  })

  test("sign-out deletes the row, clears the cookie and fires signOut with the session", async () => {
    const signedOut: unknown[] = []
    const { config: c } = config({ events: { signOut: (message) => void signedOut.push(message) } })
    const { jar } = await signIn(c)
    const [row] = await backend.sessions()
    const { token } = await csrfToken(c, jar)
    const response = await Auth(post("/auth/signout", { csrfToken: token }, { jar }), c)
    expect(response.status).toBe(302)
    expect(isExpired(setCookie(response, COOKIE)!)).toBe(true)
    expect(await backend.sessions()).toEqual([])
    expect(signedOut).toEqual([
      { session: expect.objectContaining({ sessionToken: row!.sessionToken, userId: ADA.id }) },
    ])
    // The old cookie, replayed, is worth nothing.
    const replay = await readSession(c, new Jar({ [COOKIE]: jar.get(COOKIE) ?? "" }))
    expect(replay.body).toBeNull()
  })

  test("signing in again replaces the previous session row", async () => {
    const { config: c } = config()
    const { jar } = await signIn(c)
    const first = jar.get(COOKIE)!
    await signIn(c, undefined, { jar })
    const second = jar.get(COOKIE)!
    expect(second).not.toBe(first)
    expect((await backend.sessions()).map((s) => s.sessionToken)).toEqual([sha256(second)])
  })

  test("malformed session cookies cost no query and are cleared; unknown ones cost one", async () => {
    const { config: c } = config()
    for (const value of [
      "short",
      "has space inside the token value",
      "x".repeat(600),
      "\u00e9".repeat(20),
    ]) {
      counting.calls.clear()
      const { response, body } = await readSession(c, new Jar({ [COOKIE]: value }))
      expect(response.status, value).toBe(200)
      expect(body).toBeNull()
      expect(isExpired(setCookie(response, COOKIE)!)).toBe(true)
      expect(counting.total(), value).toBe(0)
    }
    counting.calls.clear()
    const { body, response } = await readSession(c, new Jar({ [COOKIE]: "f".repeat(64) }))
    expect(body).toBeNull()
    expect(isExpired(setCookie(response, COOKIE)!)).toBe(true)
    expect(counting.calls.get("getSessionAndUser")).toBe(1)
  })

  test("POST session runs the session callback with trigger update and the new data", async () => {
    const seen: any[] = []
    const { config: c } = config({
      callbacks: {
        session: ({ session, trigger, newSession }: any) => {
          seen.push({ trigger, newSession })
          return newSession?.theme ? { ...session, theme: newSession.theme } : session
        },
      },
    })
    const { jar } = await signIn(c)
    const { token } = await csrfToken(c, jar)
    const response = await Auth(
      post("/auth/session", { csrfToken: token, data: { theme: "dark" } }, { jar, json: true }),
      c,
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ theme: "dark", user: { email: ADA.email } })
    expect(seen).toEqual([{ trigger: "update", newSession: { theme: "dark" } }])
  })

  test("getSession() (the framework path) reads the same session", async () => {
    const { config: c } = config()
    const { jar } = await signIn(c)
    const { session, cookies } = await getSession(
      { url: `${ORIGIN}/dashboard`, cookies: jar.header() },
      c,
    )
    expect(session).toMatchObject({ user: { email: ADA.email } })
    expect(cookies).toEqual([])
  })

  test("a credentials user whose e-mail belongs to another user is refused, and nothing is stored", async () => {
    await backend.adapter.createUser!({
      id: "someone-else",
      email: "ada@example.com",
      emailVerified: null,
      name: null,
      image: null,
    })
    const { config: c } = config()
    const { response } = await signIn(c)
    expect(response.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?error=OAuthAccountNotLinked`,
    )
    expect(await backend.users()).toEqual([expect.objectContaining({ id: "someone-else" })])
    expect(await backend.sessions()).toEqual([])
  })

  // Prisma's and Drizzle's adapters assign ids of their own and drop the one `createUser` is
  // given: the user `authorize` returned must still be found on the next sign-in.
  test.each([
    ["with an e-mail", ADA.email],
    ["without an e-mail", null],
  ])(
    "an adapter that assigns its own user ids: the credentials user %s is the same user on every sign-in",
    async (_, email) => {
      const assigning: Adapter = {
        ...counting.adapter,
        createUser: ({ id: _given, ...user }) =>
          counting.adapter.createUser!({ ...user, id: `own-${crypto.randomUUID()}` }),
      }
      const { config: c, log } = makeConfig({
        adapter: assigning,
        providers: [
          Credentials({
            credentials: { password: {} },
            authorize: () => ({ id: ADA.id, name: ADA.name, email }),
          }),
        ],
      })
      const first = await signIn(c)
      const second = await signIn(c, undefined, { jar: first.jar })
      for (const { response } of [first, second]) {
        expect(response.status).toBe(302)
        expect(response.headers.get("location")).not.toContain("error=")
      }
      const users = await backend.users()
      expect(users).toHaveLength(1)
      expect(users[0]!.id).toMatch(/^own-/)
      const sessions = await backend.sessions()
      expect(sessions).toHaveLength(1) // the second sign-in replaced the first's
      expect(sessions[0]!.userId).toBe(users[0]!.id)
      expect((await readSession(c, second.jar)).body).toMatchObject({ user: { name: ADA.name } })
      expect(log.errors).toEqual([])
    },
  )
})

describe("database sessions: events and failing callbacks", () => {
  test("createUser, signIn and session fire; a throwing handler is logged and breaks nothing", async () => {
    const backend = memoryBackend()
    const fired: string[] = []
    const boom = (name: string) => () => {
      fired.push(name)
      throw new Error(`${name} handler failed`)
    }
    const { config, log } = makeConfig({
      adapter: backend.adapter,
      events: {
        createUser: boom("createUser"),
        signIn: boom("signIn"),
        session: boom("session"),
        signOut: boom("signOut"),
      },
    })
    const { response, jar } = await signIn(config)
    expect(response.headers.get("location")).toBe(ORIGIN)
    const { body } = await readSession(config, jar)
    expect(body).toMatchObject({ user: { email: ADA.email } })
    const { token } = await csrfToken(config, jar)
    const out = await Auth(post("/auth/signout", { csrfToken: token }, { jar }), config)
    expect(out.status).toBe(302)
    expect(fired).toEqual(["createUser", "signIn", "session", "signOut"])
    expect(typesOf(log.errors)).toEqual(["EventError", "EventError", "EventError", "EventError"])
    expect(await backend.sessions()).toEqual([])
  })

  test("a throwing session callback answers null and keeps the session", async () => {
    const backend = memoryBackend()
    let broken = true
    const { config, log } = makeConfig({
      adapter: backend.adapter,
      callbacks: {
        session: ({ session }) => {
          if (broken) throw new Error("bug in the app's session callback")
          return session
        },
      },
    })
    const { jar } = await signIn(config)
    const first = await readSession(config, jar)
    expect(first.response.status).toBe(200)
    expect(first.body).toBeNull()
    expect(first.response.headers.getSetCookie()).toEqual([])
    expect(typesOf(log.errors)).toEqual(["SessionTokenError"])
    broken = false
    expect((await readSession(config, jar)).body).toMatchObject({ user: { email: ADA.email } })
  })

  test("with an explicit jwt strategy, credentials sign-ins store no user, only the session's record", async () => {
    const backend = memoryBackend()
    const { config } = makeConfig({ adapter: backend.adapter, session: { strategy: "jwt" } })
    const { jar } = await signIn(config)
    expect(await backend.users()).toEqual([])
    // Issue 12: every sign-in has a record with an adapter, for users `authorize` owns too.
    expect((await backend.sessions()).map((session) => session.userId)).toEqual([ADA.id])
    expect((await readSession(config, jar)).body).toMatchObject({ user: { email: ADA.email } })
  })

  test("a custom generateSessionToken is used; one that makes unusable tokens is a configuration error", async () => {
    const backend = memoryBackend()
    const good = makeConfig({
      adapter: backend.adapter,
      session: { generateSessionToken: () => `sess_${crypto.randomUUID()}` },
    })
    const { jar } = await signIn(good.config)
    expect(jar.get(COOKIE)).toMatch(/^sess_/)
    expect((await readSession(good.config, jar)).body).toMatchObject({ user: { email: ADA.email } })

    const bad = makeConfig({
      adapter: memoryBackend().adapter,
      session: { generateSessionToken: () => "1234" },
    })
    const { response } = await signIn(bad.config)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(typesOf(bad.log.errors)).toEqual(["SessionTokenError"])
  })

  test("authorize without a stable id still signs in (a user per id)", async () => {
    const backend = memoryBackend()
    const { config } = makeConfig({
      adapter: backend.adapter,
      providers: [
        Credentials({
          credentials: { name: {} },
          authorize: ({ name }) => ({ id: `u-${name}`, name: String(name), email: null }),
        }),
      ],
    })
    await signIn(config, { name: "one" })
    await signIn(config, { name: "one" })
    await signIn(config, { name: "two" })
    expect((await backend.users()).map((u) => u.id).sort()).toEqual(["u-one", "u-two"])
  })
})
