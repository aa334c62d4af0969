/**
 * Red team 7: a database session imported from Auth.js (`tessera migrate
 * --from authjs`) does not say when its owner signed in. Its record was made
 * at the import, so for `session.recentSignInAge` (10 minutes) after it, every
 * imported session counted as a fresh sign-in: whoever held a copy of an
 * Auth.js session cookie (malware, a shared computer) could, right after the
 * move, set up a second factor or register a passkey only they hold, which
 * outlives the session and locks the owner out. An imported session must sign
 * in again first, as an adopted Auth.js JWT cookie must; a session Tessera
 * started keeps its sign-in time.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, test } from "vitest"
import { SqlAdapter } from "@tessera/sql"
import { makeSeed } from "../authjs-fixtures.js"
import {
  browserWithCookie,
  importedSqlite,
  SESSION_COOKIE,
  tesseraConfig,
} from "../authjs-import-helpers.js"

const dir = mkdtempSync(join(tmpdir(), "tessera-rt7-import-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test("an imported Auth.js session cannot set up a second factor until its owner signs in again", async () => {
  const seed = makeSeed()
  const file = join(dir, "app.db")
  await importedSqlite(file, seed)

  const adapter = SqlAdapter.sqlite(file)
  try {
    const config = tesseraConfig(adapter)
    const [userId, token] = Object.entries(seed.liveSessions)[0]!
    const copy = browserWithCookie(config, SESSION_COOKIE, token)
    // The session works for reading, as after any move from Auth.js ...
    expect((await copy.session())?.user?.email).toBe(
      seed.users.find((user) => user.id === userId)!.email,
    )
    // ... but it is no proof of a recent sign-in.
    const csrfToken = await copy.csrfToken()
    const setup = await copy.request("/auth/two-factor/setup", {
      body: { csrfToken },
      headers: { origin: "http://localhost:3000" },
    })
    expect(setup.status).toBe(403)
    expect(await setup.json()).toMatchObject({ error: "RecentSignInRequired" })
    expect(await adapter.getTwoFactor!(userId)).toBeNull()
  } finally {
    await adapter.close?.()
  }
})
