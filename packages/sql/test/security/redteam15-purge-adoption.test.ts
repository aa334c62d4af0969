/**
 * Red team 15: `tessera purge` (or `adapter.purge()`) deleting the rows that
 * keep an ended Auth.js session ended, in an app whose Tessera sessions are
 * shorter-lived than its Auth.js cookies were (`session.maxAge` 1 hour, a long
 * `absoluteMaxAge`; Auth.js's cookies live 30 days).
 *
 * An Auth.js cookie stays a valid token until its own expiry. Once adopted and
 * then ended (revoked, signed out everywhere), a kept copy is refused because
 * of two rows: the note that it was adopted (a verification token) and the
 * mark that the user's sessions ended (a session record). Both were written to
 * expire with Tessera's `maxAge`, not with the Auth.js cookie: an hour later
 * `purge` deleted them as expired, and the copy, presented again, was adopted
 * as a new session. (Without the purge the note's row still refused it.)
 *
 * An Auth.js cookie is now adopted only if it was used within `session.maxAge`
 * (Auth.js renews its `iat` on every use), as an idle Tessera session expires
 * after `maxAge`: a copy old enough to outlive those rows is refused on its
 * own. On a SQLite file, the clock moved by `vi.setSystemTime` (no waiting).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, describe, expect, test, vi } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { listSessions, revokeUserSessions } from "@tessera/core/sessions"
import { SqlAdapter } from "@tessera/sql"
import { ADA, Jar, makeConfig } from "../../../core/test/harness/index.js"
import {
  AUTHJS_COOKIE,
  authjsToken,
  sessionOf,
} from "../../../core/test/security/redteam8-helpers.js"

const dir = mkdtempSync(join(tmpdir(), "tessera-rt15-adoption-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
afterEach(() => void vi.useRealTimers())

const HOUR = 3600
const DAY = 24 * HOUR

async function setup(name: string) {
  const adapter = SqlAdapter.sqlite(join(dir, `${name}.db`))
  await adapter.migrate()
  await adapter.createUser!({ ...ADA, id: ADA.id!, email: ADA.email!, emailVerified: new Date() })
  const config: AuthConfig = makeConfig({
    adapter,
    session: { strategy: "jwt", maxAge: HOUR, absoluteMaxAge: 90 * DAY, revalidateAge: 0 },
  }).config
  // Copied by a thief ten minutes after its owner last used it under Auth.js.
  const stolen = await authjsToken(
    config.secret as string,
    { sub: ADA.id, email: ADA.email },
    Math.floor(Date.now() / 1000) - 600,
  )
  return { adapter, config, stolen }
}

/** Moves the clock `seconds` ahead (Date only: timers and drivers run as they do). */
function later(seconds: number) {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + seconds * 1000 })
}

describe("red team 15: purge and an ended Auth.js session", () => {
  test("adopted, revoked, the rows purged: the kept copy is still refused", async () => {
    const { adapter, config, stolen } = await setup("revoked")
    try {
      const owner = new Jar({ [AUTHJS_COOKIE]: stolen })
      expect((await sessionOf(config, owner))?.user?.email).toBe(ADA.email)
      expect(await revokeUserSessions(config, ADA.id!)).toBe(1)
      expect(await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: stolen }))).toBeNull()

      later(2 * HOUR)
      await adapter.purge()
      expect(await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: stolen }))).toBeNull()
      expect(await listSessions(config, ADA.id!)).toHaveLength(0)
    } finally {
      await adapter.close()
    }
  })

  test("never adopted, its user signed out everywhere, the mark purged: another device's copy is still refused", async () => {
    const { adapter, config, stolen } = await setup("everywhere")
    try {
      const deviceB = await authjsToken(
        config.secret as string,
        { sub: ADA.id, email: ADA.email },
        Math.floor(Date.now() / 1000) - 900,
      )
      expect((await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: stolen })))?.user?.email).toBe(
        ADA.email,
      )
      await revokeUserSessions(config, ADA.id!)
      expect(await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: deviceB }))).toBeNull()

      later(2 * HOUR)
      await adapter.purge()
      expect(await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: deviceB }))).toBeNull()
      expect(await listSessions(config, ADA.id!)).toHaveLength(0)
    } finally {
      await adapter.close()
    }
  })

  test("a cookie used within maxAge is still adopted (the move keeps working)", async () => {
    const { adapter, config, stolen } = await setup("fresh")
    try {
      later(HOUR / 2)
      const browser = new Jar({ [AUTHJS_COOKIE]: stolen })
      expect((await sessionOf(config, browser))?.user?.email).toBe(ADA.email)
      expect(await listSessions(config, ADA.id!)).toHaveLength(1)
    } finally {
      await adapter.close()
    }
  })
})
