/**
 * Sessions you can see and end, through `Auth()`: `GET /auth/sessions`,
 * `POST /auth/sessions/revoke`, `POST /auth/signout` with `scope`, and the
 * server-side API of `@tessera/core/sessions`, for JWT and database sessions
 * on the memory adapter, SQLite in a real file, and PostgreSQL. The clock is
 * faked (Date only) to show a revoked JWT session ending within
 * `session.revalidateAge` and not before its cached answer runs out.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import {
  getSessionId,
  listSessions,
  revokeSession,
  revokeUserSessions,
} from "@tessera/core/sessions"
import type { SessionRecord, SessionRevokedReason } from "@tessera/core/types"
import { HttpBrowser } from "@tessera/testing"
import { memoryBackend, PostgresFixture, sqliteBackend, type Backend } from "../harness/backends.js"
import { serveAuth } from "../harness/http-server.js"
import {
  ADA,
  csrfToken,
  get,
  Jar,
  makeConfig,
  post,
  sessionCookieName,
  setCookie,
  setsSession,
  signIn,
  isExpired,
} from "../harness/index.js"

const COOKIE = sessionCookieName()
const MALLORY = { id: "user-2", name: "Mallory", email: "mallory@example.com", image: null }

/** Ada and Mallory sign in with their names (any password). */
const provider = Credentials({
  credentials: { username: {}, password: {} },
  authorize: ({ username }) =>
    username === "ada" ? { ...ADA } : username === "mallory" ? { ...MALLORY } : null,
})
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"

const postgres = new PostgresFixture()
beforeAll(async () => {
  await postgres.start()
}, 60_000)
afterAll(async () => {
  await postgres.stop()
})
afterEach(() => {
  vi.useRealTimers()
})

interface Device {
  jar: Jar
  userAgent: string
}

describe.each([
  ["memory", async () => memoryBackend()],
  ["sqlite", sqliteBackend],
  ["postgres", () => postgres.backend()],
] as const)("session management on %s", (_name, makeBackend) => {
  let backend: Backend
  beforeEach(async () => {
    backend = await makeBackend()
    // With JWT sessions `authorize` owns its users: Ada must be stored to have session records.
    for (const user of [ADA, MALLORY])
      await backend.adapter.createUser!({
        ...user,
        id: user.id!,
        email: user.email!,
        emailVerified: null,
      })
  })
  afterEach(async () => {
    await backend.close()
  })

  describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
    const revoked: { session: SessionRecord; reason: SessionRevokedReason }[] = []
    const signOuts: unknown[] = []
    let config: AuthConfig
    beforeEach(() => {
      revoked.length = 0
      signOuts.length = 0
      config = makeConfig({
        adapter: backend.adapter,
        providers: [provider],
        session: { strategy },
        events: {
          sessionRevoked: (message) => void revoked.push(message),
          signOut: (message) => void signOuts.push(message),
        },
      }).config
    })

    /** A browser signed in as `username`, with its own User-Agent. */
    async function device(userAgent: string, username = "ada"): Promise<Device> {
      const jar = new Jar()
      const { token } = await csrfToken(config, jar)
      const response = await Auth(
        post(
          "/auth/callback/credentials",
          { username, password: "any", csrfToken: token },
          { jar, headers: { "user-agent": userAgent } },
        ),
        config,
      )
      expect(response.status).toBe(302)
      expect(setsSession(response)).toBe(true)
      jar.update(response)
      return { jar, userAgent }
    }

    async function session(d: Device) {
      const response = await Auth(get("/auth/session", { jar: d.jar }), config)
      d.jar.update(response)
      return (await response.json()) as { user?: { email?: string } } | null
    }

    async function list(d: Device) {
      const response = await Auth(get("/auth/sessions", { jar: d.jar }), config)
      d.jar.update(response)
      return { status: response.status, response, body: (await response.json()) as any }
    }

    async function postAs(d: Device, path: string, body: Record<string, string>) {
      const { token } = await csrfToken(config, d.jar)
      const response = await Auth(post(path, { ...body, csrfToken: token }, { jar: d.jar }), config)
      d.jar.update(response)
      return response
    }

    test("GET sessions lists the user's live sessions, newest first, the current one marked", async () => {
      vi.useFakeTimers({ toFake: ["Date"] })
      const laptop = await device(FIREFOX)
      vi.setSystemTime(Date.now() + 1000)
      const phone = await device("Phone/1.0")
      const { status, response, body } = await list(laptop)
      expect(status).toBe(200)
      expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
      expect(body).toHaveLength(2)
      expect(body.map((s: any) => s.userAgent)).toEqual(["Phone/1.0", FIREFOX])
      expect(body.map((s: any) => s.current)).toEqual([false, true])
      for (const entry of body) {
        expect(Object.keys(entry).sort()).toEqual(
          ["createdAt", "current", "expires", "id", "lastSeenAt", "userAgent"].sort(),
        )
        expect(entry.id).toMatch(/^[0-9a-f]{32}$/)
        expect(Date.parse(entry.expires)).toBeGreaterThan(Date.now())
        expect(Date.parse(entry.createdAt)).toBeLessThanOrEqual(Date.now())
      }
      // The same list from the other device, with the other one current.
      expect((await list(phone)).body.map((s: any) => s.current)).toEqual([true, false])
    })

    test("without a session: 401, and nothing is listed or revoked", async () => {
      const stranger = { jar: new Jar(), userAgent: "x" }
      expect((await list(stranger)).status).toBe(401)
      expect((await list(stranger)).body).toMatchObject({ error: "SessionRequired" })
      const response = await postAs(stranger, "/auth/sessions/revoke", { id: "0".repeat(32) })
      expect(response.status).toBe(401)
      // "401 otherwise" (issue 12), whatever the body: no id, or one that cannot be an id.
      for (const body of [{}, { id: "" }, { id: "a b" }]) {
        const refused = await postAs(stranger, "/auth/sessions/revoke", body)
        expect(refused.status).toBe(401)
        expect(await refused.json()).toMatchObject({ error: "SessionRequired" })
      }
    })

    test("revoke ends that one session: at once for database sessions, within revalidateAge for JWT", async () => {
      vi.useFakeTimers({ toFake: ["Date"] })
      const laptop = await device(FIREFOX)
      const phone = await device("Phone/1.0")
      const phoneId = (await list(laptop)).body.find((s: any) => !s.current).id
      const response = await postAs(laptop, "/auth/sessions/revoke", { id: phoneId })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ revoked: phoneId, current: false })
      expect(revoked).toEqual([
        {
          session: expect.objectContaining({ id: phoneId, userId: ADA.id, userAgent: "Phone/1.0" }),
          reason: "user",
        },
      ])
      if (strategy === "jwt") {
        // The phone's cookie trusted its record less than revalidateAge (60 s) ago.
        expect((await session(phone))?.user?.email).toBe(ADA.email)
        vi.setSystemTime(Date.now() + 60_000)
      }
      expect(await session(phone)).toBeNull()
      expect(phone.jar.get(COOKIE)).toBeUndefined()
      expect((await session(laptop))?.user?.email).toBe(ADA.email)
      expect((await list(laptop)).body).toHaveLength(1)
    })

    test("a revoked JWT session is asked about again once revalidateAge has passed, not before", async () => {
      if (strategy !== "jwt") return
      vi.useFakeTimers({ toFake: ["Date"] })
      config = makeConfig({
        adapter: backend.adapter,
        providers: [provider],
        session: { strategy, revalidateAge: 10 },
      }).config
      const laptop = await device(FIREFOX)
      const id = (await list(laptop)).body[0].id
      expect(await revokeSession(config, id)).toBe(true)
      vi.setSystemTime(Date.now() + 9_000)
      expect(await session(laptop)).not.toBeNull()
      vi.setSystemTime(Date.now() + 1_000)
      expect(await session(laptop)).toBeNull()
    })

    test("revalidateAge: 0 asks on every check", async () => {
      config = makeConfig({
        adapter: backend.adapter,
        providers: [provider],
        session: { strategy, revalidateAge: 0 },
      }).config
      const laptop = await device(FIREFOX)
      expect(await revokeUserSessions(config, ADA.id!)).toBe(1)
      expect(await session(laptop)).toBeNull()
    })

    test("a lively JWT session re-issues its cookie once per revalidateAge, keeping its expiry", async () => {
      if (strategy !== "jwt") return
      vi.useFakeTimers({ toFake: ["Date"] })
      const laptop = await device(FIREFOX)
      const before = laptop.jar.get(COOKIE)
      const first = await Auth(get("/auth/session", { jar: laptop.jar }), config)
      expect(setCookie(first, COOKIE)).toBeUndefined()
      const expires = ((await first.json()) as { expires: string }).expires
      vi.setSystemTime(Date.now() + 61_000)
      const second = await Auth(get("/auth/session", { jar: laptop.jar }), config)
      const reissued = setCookie(second, COOKIE)!
      expect(reissued.value).not.toBe(before)
      expect(((await second.json()) as { expires: string }).expires).toBe(expires)
      laptop.jar.update(second)
      const third = await Auth(get("/auth/session", { jar: laptop.jar }), config)
      expect(setCookie(third, COOKIE)).toBeUndefined()
      // lastSeenAt moved with the check.
      const [entry] = (await list(laptop)).body
      expect(Date.parse(entry.lastSeenAt)).toBeGreaterThan(Date.parse(entry.createdAt))
    })

    test("a made-up or malformed id: 404 or 400, and nothing ends", async () => {
      const laptop = await device(FIREFOX)
      expect((await postAs(laptop, "/auth/sessions/revoke", { id: "f".repeat(32) })).status).toBe(
        404,
      )
      expect((await postAs(laptop, "/auth/sessions/revoke", { id: "" })).status).toBe(400)
      expect((await postAs(laptop, "/auth/sessions/revoke", { id: "a b" })).status).toBe(400)
      expect(revoked).toEqual([])
      expect(await listSessions(config, ADA.id!)).toHaveLength(1)
    })

    test("revoking another user's session by id: 404, nothing ended, nothing said about it", async () => {
      const laptop = await device(FIREFOX)
      const mallory = await device("Evil/1.0", "mallory")
      const victimId = (await list(laptop)).body[0].id
      const response = await postAs(mallory, "/auth/sessions/revoke", { id: victimId })
      expect(response.status).toBe(404)
      const unknown = await postAs(mallory, "/auth/sessions/revoke", { id: "a".repeat(32) })
      expect(await response.json()).toEqual(await unknown.json())
      expect((await session(laptop))?.user?.email).toBe(ADA.email)
      expect(await listSessions(config, ADA.id!)).toHaveLength(1)
    })

    test("revoke needs the CSRF token", async () => {
      const laptop = await device(FIREFOX)
      const id = (await list(laptop)).body[0].id
      const response = await Auth(
        post("/auth/sessions/revoke", { id }, { jar: laptop.jar }),
        config,
      )
      expect(response.status).toBe(403)
      expect(await listSessions(config, ADA.id!)).toHaveLength(1)
    })

    test("revoking the current session ends it here too", async () => {
      const laptop = await device(FIREFOX)
      const id = (await list(laptop)).body[0].id
      const response = await postAs(laptop, "/auth/sessions/revoke", { id })
      expect(await response.json()).toEqual({ revoked: id, current: true })
      expect(isExpired(setCookie(response, COOKIE)!)).toBe(true)
      expect(await session(laptop)).toBeNull()
    })

    test("signout scope=others ends every other session and keeps this one", async () => {
      vi.useFakeTimers({ toFake: ["Date"] })
      const laptop = await device(FIREFOX)
      const phone = await device("Phone/1.0")
      const tablet = await device("Tablet/1.0")
      const response = await postAs(laptop, "/auth/signout", { scope: "others" })
      expect(response.status).toBe(302)
      expect(setCookie(response, COOKIE)).toBeUndefined()
      expect(revoked.map((r) => r.session.userAgent).sort()).toEqual(["Phone/1.0", "Tablet/1.0"])
      expect(revoked.every((r) => r.reason === "user")).toBe(true)
      expect(signOuts).toEqual([])
      vi.setSystemTime(Date.now() + 61_000)
      expect(await session(phone)).toBeNull()
      expect(await session(tablet)).toBeNull()
      expect((await session(laptop))?.user?.email).toBe(ADA.email)
      expect((await list(laptop)).body).toHaveLength(1)
    })

    test("signout scope=all ends every session, this one included, then signs out as usual", async () => {
      vi.useFakeTimers({ toFake: ["Date"] })
      const laptop = await device(FIREFOX)
      const phone = await device("Phone/1.0")
      const response = await postAs(laptop, "/auth/signout", { scope: "all", callbackUrl: "/bye" })
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe("http://localhost:3000/bye")
      expect(isExpired(setCookie(response, COOKIE)!)).toBe(true)
      expect(revoked.map((r) => r.session.userAgent)).toEqual(["Phone/1.0"])
      expect(signOuts).toHaveLength(1)
      vi.setSystemTime(Date.now() + 61_000)
      expect(await session(phone)).toBeNull()
      expect(await session(laptop)).toBeNull()
      expect(await listSessions(config, ADA.id!)).toEqual([])
    })

    test("signout with another scope is refused, and nothing ends", async () => {
      const laptop = await device(FIREFOX)
      const response = await postAs(laptop, "/auth/signout", { scope: "everyone" })
      expect(response.status).toBe(400)
      expect((await session(laptop))?.user?.email).toBe(ADA.email)
    })

    test("sign-out deletes the record: a copy of the cookie stops working within revalidateAge", async () => {
      vi.useFakeTimers({ toFake: ["Date"] })
      const laptop = await device(FIREFOX)
      const copy = { jar: new Jar(Object.fromEntries(laptop.jar)), userAgent: "thief" }
      expect((await postAs(laptop, "/auth/signout", {})).status).toBe(302)
      expect(await listSessions(config, ADA.id!)).toEqual([])
      vi.setSystemTime(Date.now() + 60_000)
      expect(await session(copy)).toBeNull()
    })

    test("a sign-in replaces the browser's previous session record", async () => {
      const laptop = await device(FIREFOX)
      const { response } = await signIn(
        config,
        { username: "ada", password: "x" },
        { jar: laptop.jar },
      )
      expect(response.status).toBe(302)
      expect(await listSessions(config, ADA.id!)).toHaveLength(1)
    })

    test("over HTTP: list, revoke (a JSON body), sign out everywhere", async () => {
      vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true })
      const server = await serveAuth(() => config)
      try {
        const laptop = new HttpBrowser(server.origin, "/auth", { "user-agent": FIREFOX })
        const phone = new HttpBrowser(server.origin, "/auth", { "user-agent": "Phone/1.0" })
        const tablet = new HttpBrowser(server.origin, "/auth", { "user-agent": "Tablet/1.0" })
        for (const b of [laptop, phone, tablet]) {
          expect((await b.signInWithCredentials({ username: "ada", password: "x" })).status).toBe(
            302,
          )
        }
        const listed = await laptop.request("/auth/sessions")
        expect(listed.status).toBe(200)
        const sessions = (await listed.json()) as {
          id: string
          current: boolean
          userAgent: string
        }[]
        expect(sessions.map((s) => s.userAgent).sort()).toEqual(
          [FIREFOX, "Phone/1.0", "Tablet/1.0"].sort(),
        )
        expect(sessions.filter((s) => s.current).map((s) => s.userAgent)).toEqual([FIREFOX])
        const phoneId = sessions.find((s) => s.userAgent === "Phone/1.0")!.id
        const revoke = await laptop.request("/auth/sessions/revoke", {
          json: { id: phoneId, csrfToken: await laptop.csrfToken() },
          headers: { origin: server.origin },
        })
        expect(revoke.status).toBe(200)
        const everywhere = await laptop.request("/auth/signout", {
          form: { scope: "all", csrfToken: await laptop.csrfToken() },
          headers: { origin: server.origin },
        })
        expect(everywhere.status).toBe(302)
        vi.setSystemTime(Date.now() + 60_000)
        for (const b of [laptop, phone, tablet]) expect(await b.session()).toBeNull()
        expect(await listSessions(config, ADA.id!)).toEqual([])
      } finally {
        await server.stop()
      }
    })

    test("server side: listSessions, revokeSession, revokeUserSessions (except one), getSessionId", async () => {
      const laptop = await device(FIREFOX)
      await device("Phone/1.0")
      await device("Tablet/1.0")
      const all = await listSessions(config, ADA.id!)
      expect(all).toHaveLength(3)
      expect(all[0]).toMatchObject({ userId: ADA.id, provider: "credentials", ipPrefix: null })
      expect(all[0]!.createdAt).toBeInstanceOf(Date)
      const current = await getSessionId(
        { url: "http://localhost:3000/account", cookies: laptop.jar.header() },
        config,
      )
      expect(current).toEqual({ userId: ADA.id, sessionId: expect.any(String) })
      expect(all.map((s) => s.id)).toContain(current!.sessionId)
      expect(await revokeSession(config, all.find((s) => s.id !== current!.sessionId)!.id)).toBe(
        true,
      )
      expect(await revokeSession(config, "0".repeat(32))).toBe(false)
      expect(await revokeUserSessions(config, ADA.id!, { except: current!.sessionId })).toBe(1)
      expect((await listSessions(config, ADA.id!)).map((s) => s.id)).toEqual([current!.sessionId])
      expect(revoked.map((r) => r.reason)).toEqual(["server", "server"])
    })
  })
})

describe("without session records", () => {
  test("no adapter: the routes answer 501 saying an adapter is needed; JWT sessions work as before", async () => {
    const { config } = makeConfig()
    const { jar } = await signIn(config)
    const listed = await Auth(get("/auth/sessions", { jar }), config)
    expect(listed.status).toBe(501)
    expect(await listed.json()).toEqual({
      error: "MissingAdapter",
      message: "Session management needs a database adapter (`adapter`)",
    })
    const { token } = await csrfToken(config, jar)
    const revoke = await Auth(
      post("/auth/sessions/revoke", { id: "a".repeat(32), csrfToken: token }, { jar }),
      config,
    )
    expect(revoke.status).toBe(501)
    const all = await Auth(
      post("/auth/signout", { scope: "all", csrfToken: token }, { jar }),
      config,
    )
    expect(all.status).toBe(501)
    // Not signed out: the request could not do what it asked.
    const session = await Auth(get("/auth/session", { jar }), config)
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(ADA.email)
    await expect(listSessions(config, ADA.id!)).rejects.toMatchObject({ type: "MissingAdapter" })
  })

  test("an adapter without the session-record methods: 501 naming them", async () => {
    const backend = memoryBackend()
    const { listSessionRecords: _l, deleteSessionRecords: _d, ...adapter } = backend.adapter
    const { config } = makeConfig({ adapter, session: { strategy: "database" } })
    const { jar } = await signIn(config)
    const listed = await Auth(get("/auth/sessions", { jar }), config)
    expect(listed.status).toBe(501)
    expect(await listed.json()).toMatchObject({
      error: "MissingAdapterMethods",
      message: expect.stringContaining("listSessionRecords, deleteSessionRecords"),
    })
  })

  test("unknown sub-actions and methods", async () => {
    const { config } = makeConfig()
    expect((await Auth(get("/auth/sessions/other"), config)).status).toBe(404)
    expect((await Auth(get("/auth/sessions/revoke"), config)).status).toBe(405)
    expect((await Auth(post("/auth/sessions", {}), config)).status).toBe(405)
    expect((await Auth(post("/auth/sessions/revoke/x", {}), config)).status).toBe(404)
  })
})
