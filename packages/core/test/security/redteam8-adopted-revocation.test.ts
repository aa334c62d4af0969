/**
 * Red team 8, chaining Auth.js cookie adoption with "sign out everywhere".
 *
 * An Auth.js JWT session cookie is adopted on the first request that shows
 * it: it becomes a Tessera session with a new record, which can be listed and
 * revoked. But the Auth.js cookie itself stays a valid token until its own
 * expiry (30 days): whoever kept a copy (malware, a shared computer, copied
 * before or after the move) could present it again after the owner signed out
 * everywhere, and each presentation minted a new record, so a new session.
 * "Sign out everywhere" could not end a stolen Auth.js cookie at all.
 *
 * Each Auth.js cookie is adopted as one session: presenting it again while
 * that session lives rejoins it (parallel requests of the browser that moves),
 * and once that session ended the cookie signs no one in.
 *
 * The same holds for an Auth.js cookie never adopted before its owner signed
 * out everywhere (a second device's, stolen, whose owner never opened the app
 * there again): nothing recorded it, so nothing could end it. Ending a user's
 * sessions now also ends the Auth.js cookies they had until then.
 *
 * On SQLite (a real file) and PostgreSQL, with JWT sessions and records.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { listSessions, revokeUserSessions } from "@tessera/core/sessions"
import { ADA, Jar, makeConfig } from "../harness/index.js"
import { PostgresFixture, sqliteBackend, type Backend } from "../harness/backends.js"
import { postForm } from "../two-factor/helpers.js"
import { AUTHJS_COOKIE, authjsToken, sessionOf } from "./redteam8-helpers.js"

/** A time `hours` ago, in seconds: a cookie last used then. */
const hoursAgo = (hours: number) => Math.floor(Date.now() / 1000) - hours * 3600

const postgres = new PostgresFixture()
beforeAll(() => postgres.start(), 60_000)
afterAll(() => postgres.stop())

describe.each([
  ["sqlite", sqliteBackend],
  ["postgres", () => postgres.backend()],
] as const)("on %s", (_name, makeBackend) => {
  let backend: Backend
  let config: AuthConfig
  let stolen: string

  beforeEach(async () => {
    backend = await makeBackend()
    await backend.adapter.createUser!({
      ...ADA,
      id: ADA.id!,
      email: ADA.email!,
      emailVerified: new Date(),
    })
    // revalidateAge 0: every check asks the record (a revoked session ends on its next request).
    config = makeConfig({
      adapter: backend.adapter,
      session: { strategy: "jwt", revalidateAge: 0 },
    }).config
    stolen = await authjsToken(
      config.secret as string,
      { sub: ADA.id, email: ADA.email },
      hoursAgo(1),
    )
  })

  afterEach(async () => {
    await backend.close()
  })

  describe("a copied Auth.js session cookie after its owner signed out everywhere", () => {
    test("revokeUserSessions: the copy, presented again, signs no one in", async () => {
      const owner = new Jar({ [AUTHJS_COOKIE]: stolen })
      expect((await sessionOf(config, owner))?.user?.email).toBe(ADA.email)
      const thief = new Jar({ [AUTHJS_COOKIE]: stolen })
      expect((await sessionOf(config, thief))?.user?.email).toBe(ADA.email)
      // The two browsers holding one Auth.js cookie are one session.
      expect(await listSessions(config, ADA.id!)).toHaveLength(1)

      expect(await revokeUserSessions(config, ADA.id!)).toBe(1)
      expect(await sessionOf(config, owner)).toBeNull()
      expect(await sessionOf(config, thief)).toBeNull()
      // The thief kept the raw Auth.js cookie and presents it again in a fresh browser.
      expect(await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: stolen }))).toBeNull()
      expect(await listSessions(config, ADA.id!)).toHaveLength(0)
    })

    test("signing out (scope all) through Auth(): the copy never comes back", async () => {
      const owner = new Jar({ [AUTHJS_COOKIE]: stolen })
      expect((await sessionOf(config, owner))?.user?.email).toBe(ADA.email)
      const out = await postForm(config, owner, "/auth/signout", { scope: "all" })
      expect(out.status).toBe(302)
      expect(await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: stolen }))).toBeNull()
      expect(await listSessions(config, ADA.id!)).toHaveLength(0)
    })

    test("the moving browser's parallel first requests: all signed in, as one session", async () => {
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => sessionOf(config, new Jar({ [AUTHJS_COOKIE]: stolen }))),
      )
      expect(answers.map((answer) => answer?.user?.email)).toEqual(Array(4).fill(ADA.email))
      expect(await listSessions(config, ADA.id!)).toHaveLength(1)
    })

    test("another Auth.js cookie of the same user (another browser) is a session of its own", async () => {
      const owner = new Jar({ [AUTHJS_COOKIE]: stolen })
      expect((await sessionOf(config, owner))?.user?.email).toBe(ADA.email)
      const other = await authjsToken(config.secret as string, { sub: ADA.id, email: ADA.email })
      expect((await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: other })))?.user?.email).toBe(
        ADA.email,
      )
      expect(await listSessions(config, ADA.id!)).toHaveLength(2)
    })
  })

  describe("an Auth.js cookie never adopted before its owner signed out everywhere", () => {
    test("another device's cookie, kept by a thief: refused once the user's sessions ended", async () => {
      const secret = config.secret as string
      const deviceB = await authjsToken(secret, { sub: ADA.id, email: ADA.email }, hoursAgo(2))
      const owner = new Jar({ [AUTHJS_COOKIE]: stolen })
      expect((await sessionOf(config, owner))?.user?.email).toBe(ADA.email)
      const out = await postForm(config, owner, "/auth/signout", { scope: "all" })
      expect(out.status).toBe(302)
      expect(await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: deviceB }))).toBeNull()
      // Sign out everywhere else, from a new sign-in: the same.
      expect(await revokeUserSessions(config, ADA.id!)).toBe(0)
      expect(await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: deviceB }))).toBeNull()
      expect(await listSessions(config, ADA.id!)).toHaveLength(0)
    })

    test("another user's Auth.js cookies are not touched", async () => {
      const grace = { id: "user-grace", email: "grace@example.com" }
      await backend.adapter.createUser!({ ...grace, name: null, image: null, emailVerified: null })
      const hers = await authjsToken(config.secret as string, { sub: grace.id, email: grace.email })
      await revokeUserSessions(config, ADA.id!)
      expect((await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: hers })))?.user?.email).toBe(
        grace.email,
      )
    })
  })
})
