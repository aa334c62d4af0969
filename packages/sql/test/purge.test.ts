/**
 * Expired rows go away: `tessera purge` deletes expired sessions, verification
 * tokens and rate-limit counters (and nothing live); storing a token clears
 * the expired ones on its own, without making that request wait.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, test, vi } from "vitest"
import { SqlAdapter } from "@tessera/sql"
import { main, type CliIO } from "../src/cli.js"

const dir = mkdtempSync(join(tmpdir(), "tessera-purge-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const HOUR = 3_600_000

async function seeded(file: string) {
  const adapter = SqlAdapter.sqlite(file)
  await adapter.migrate()
  const user = await adapter.createUser!({ id: "u1", email: "u1@example.com", emailVerified: null })
  const past = new Date(Date.now() - HOUR)
  const future = new Date(Date.now() + HOUR)
  await adapter.createSession!({ sessionToken: "old", userId: user.id, expires: past })
  await adapter.createSession!({ sessionToken: "live", userId: user.id, expires: future })
  await adapter.db
    .insertInto("verification_tokens")
    .values([
      { identifier: "a@example.com", token: "old", expires: past.valueOf() },
      { identifier: "a@example.com", token: "live", expires: future.valueOf() },
    ])
    .execute()
  await adapter.db
    .insertInto("rate_limits")
    .values([
      { key: "old", count: 3, expires_at: past.valueOf() },
      { key: "live", count: 1, expires_at: future.valueOf() },
    ])
    .execute()
  return adapter
}

const names = async (adapter: ReturnType<typeof SqlAdapter.sqlite>) => ({
  sessions: (await adapter.db.selectFrom("sessions").select("session_token").execute()).map(
    (r) => r.session_token,
  ),
  tokens: (await adapter.db.selectFrom("verification_tokens").select("token").execute()).map(
    (r) => r.token,
  ),
  limits: (await adapter.db.selectFrom("rate_limits").select("key").execute()).map((r) => r.key),
})

test("tessera purge deletes what expired and keeps what is live", async () => {
  const file = join(dir, "purge.db")
  const adapter = await seeded(file)
  const out: string[] = []
  const io: CliIO = { out: (s) => void out.push(s), err: (s) => void out.push(s), env: {} }
  expect(await main(["purge", "--sqlite", file], io)).toBe(0)
  expect(out.join("")).toContain(
    "deleted 1 expired sessions, 1 verification tokens, 1 rate-limit counters",
  )
  expect(await names(adapter)).toEqual({ sessions: ["live"], tokens: ["live"], limits: ["live"] })
  await adapter.close()
})

test("storing a verification token clears expired ones, at most once a minute", async () => {
  const adapter = await seeded(join(dir, "auto.db"))
  await adapter.createVerificationToken!({
    identifier: "b@example.com",
    token: "new",
    expires: new Date(Date.now() + HOUR),
  })
  await vi.waitFor(async () =>
    expect((await names(adapter)).tokens.sort()).toEqual(["live", "new"]),
  )
  // Another expired one right after: left for the next round (or tessera purge).
  await adapter.db
    .insertInto("verification_tokens")
    .values({ identifier: "c@example.com", token: "old-2", expires: Date.now() - HOUR })
    .execute()
  await adapter.createVerificationToken!({
    identifier: "d@example.com",
    token: "newer",
    expires: new Date(Date.now() + HOUR),
  })
  expect((await names(adapter)).tokens.sort()).toEqual(["live", "new", "newer", "old-2"])
  await adapter.close()
})
