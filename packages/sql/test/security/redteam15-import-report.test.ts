/**
 * Red team 15: what a user of the Auth.js app wrote, printed to the operator's
 * terminal by `tessera migrate --from authjs`.
 *
 * The import report names rows it could not carry, or that need a look, by user
 * id, e-mail and provider account id: values an OAuth profile (an OpenID
 * provider's `email`, `sub`) or a sign-up form put in the Auth.js tables, so an
 * attacker's to choose. Before round 15 they were printed as stored: an address
 * holding ANSI escape sequences rewrote the operator's terminal (cleared it,
 * retitled it, hid text, planted a hyperlink), one holding a line break forged
 * report lines ("Auth.js import: applied ..."), and Unicode bidi controls
 * reordered what the eye reads. Each control character is now printed escaped
 * (`\x1b`, `\n`, `\u202e`): the operator sees what is stored, on one line.
 * Through the CLI, on a SQLite file in the Auth.js Kysely adapter's layout.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Sqlite from "better-sqlite3"
import { Kysely, SqliteDialect } from "kysely"
import { afterAll, describe, expect, test } from "vitest"
import { createAuthjsDatabase, makeSeed, type Seed } from "../authjs-fixtures.js"
import { authjs, withKysely } from "../authjs-import-helpers.js"

const dir = mkdtempSync(join(tmpdir(), "tessera-rt15-report-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const FORGED = "Auth.js import: applied, in one transaction."
/** What the attacker's rows hold: each would do something to a terminal if printed raw. */
const HOSTILE = [
  "mallory@example.com\u001b[2J\u001b[H", // clear the screen, cursor home
  "Mallory@Example.com\u001b]0;pwned\u0007", // set the window title (OSC 0, BEL)
  `x@example.com\n${FORGED}`, // a forged line
  "y@example.com\r  users: 0 left behind", // overwrite the line it is on
  "\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\@example.com", // hyperlink (OSC 8)
  "moc.elpmaxe@\u202eada", // right-to-left override
  "z@example.com\u009b31m", // C1 CSI
]

function hostileSeed(): Seed {
  const seed = makeSeed()
  const users = HOSTILE.map((email, i) => ({
    id: `hostile-${i}`,
    name: null,
    email,
    emailVerified: null,
    image: null,
  }))
  // One more named by its id in a conflict (its e-mail is not as Tessera writes them), and an
  // account left behind as unreadable (named by provider/id).
  users.push({ ...users[0]!, id: `hostile-id\u001b[8m`, email: "Hidden@Example.com" })
  const account = {
    ...seed.accounts[1]!,
    userId: "hostile-1",
    provider: "oidc\u001b[2K",
    providerAccountId: "sub\n  sessions: 0 left behind",
    expires_at: "not a number" as unknown as number,
  }
  return {
    ...seed,
    users: [...seed.users, ...users],
    accounts: [...seed.accounts, account],
  }
}

/** Control characters (C0 but the line feeds between lines, DEL, C1) and bidi controls. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/

describe("red team 15: the import report prints stored values, never their control characters", () => {
  test("dry run and --apply: no control character reaches the terminal, no line is forged, each value is shown escaped", async () => {
    const file = join(dir, "hostile.db")
    await withKysely(
      new Kysely<any>({ dialect: new SqliteDialect({ database: new Sqlite(file) }) }),
      (db) => createAuthjsDatabase(db, "kysely", "sqlite", hostileSeed()),
    )
    for (const args of [
      ["--sqlite", file],
      ["--sqlite", file, "--apply"],
    ]) {
      const { code, out, err } = await authjs(...args)
      expect(code).toBe(0)
      const printed = out + err
      expect(printed).not.toMatch(CONTROL)
      // Exactly one first line, ours: nothing forged a second report line.
      const lines = printed.split("\n")
      expect(lines.filter((l) => l.startsWith("Auth.js import:"))).toHaveLength(1)
      expect(lines.filter((l) => /^\s*(users|sessions): 0 left behind/.test(l))).toEqual([])
      // What is stored is still shown, escaped, so the operator can find the row.
      expect(printed).toContain("x@example.com\\nAuth.js import: applied")
      expect(printed).toContain("mallory@example.com\\x1b[2J")
      expect(printed).toContain("hostile-id\\x1b[8m")
      expect(printed).toContain("oidc\\x1b[2K/sub\\n")
    }
  })
})
