/**
 * Red team 15: a `DATABASE_URL` (or `--to`) for another database than the two
 * Tessera runs on (`mysql://app:password@db/auth`, `mongodb+srv://...`,
 * `postgres+ssl://...`), given to the `tessera` CLI (the built binary, in a
 * fresh working directory, as an operator runs it).
 *
 * Before round 15 anything but `postgres://` was taken for a SQLite path: the
 * command made directories named after the URL in the working directory (the
 * password one of them), created a SQLite database at the end, printed
 * `SQLite mysql://app:<password>@db/auth: applied 0001_init, ...` to stdout and
 * exited 0, so the operator read that their database was migrated. It is now
 * a usage error (exit 2) that names the scheme only: nothing is created and
 * nothing of the URL but its scheme is printed.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, test } from "vitest"

const dist = fileURLToPath(new URL("../../dist/bin.js", import.meta.url))
const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** `tessera-sql <args>` in a new, empty working directory: its output and what it left there. */
function tessera(args: string[], env: Record<string, string> = {}) {
  const cwd = mkdtempSync(join(tmpdir(), "tessera-rt15-scheme-"))
  dirs.push(cwd)
  const result = spawnSync(process.execPath, [dist, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 20_000,
    env: { PATH: process.env.PATH ?? "", ...env },
  })
  return { code: result.status, printed: result.stdout + result.stderr, left: readdirSync(cwd) }
}

const PASSWORD = `Sup3r-${crypto.randomUUID()}`

describe.runIf(existsSync(dist))("red team 15: a URL for another database", () => {
  test.each([
    `mysql://app:${PASSWORD}@127.0.0.1:3306/auth`,
    `mongodb+srv://app:${PASSWORD}@cluster0.example.net/auth`,
    `postgres+ssl://app:${PASSWORD}@127.0.0.1/auth`,
    `redis://:${PASSWORD}@127.0.0.1:6379`,
  ])("DATABASE_URL=%s: refused as usage, nothing created, no password printed", (url) => {
    for (const command of ["migrate", "purge"]) {
      const { code, printed, left } = tessera([command], { DATABASE_URL: url })
      expect(code, printed).toBe(2)
      expect(printed).toMatch(/DATABASE_URL is a [a-z+]+:\/\/ URL/)
      expect(printed).not.toContain(PASSWORD)
      expect(left).toEqual([])
    }
  })

  test("--to mysql://... for the Auth.js import: refused the same way", () => {
    const { code, printed, left } = tessera([
      "migrate",
      "--from",
      "authjs",
      "--sqlite",
      "authjs.db",
      "--to",
      `mysql://app:${PASSWORD}@127.0.0.1/auth`,
      "--apply",
    ])
    expect(code, printed).toBe(2)
    expect(printed).toMatch(/--to is a mysql:\/\/ URL/)
    expect(printed).not.toContain(PASSWORD)
    expect(left).toEqual([])
  })

  test("still accepted: postgres:// and postgresql:// URLs, SQLite paths with or without file: / sqlite:", () => {
    for (const url of ["file:./data/auth.db", "sqlite:auth.db", "sqlite://auth.db", "auth.db"]) {
      const { code, printed } = tessera(["migrate"], { DATABASE_URL: url })
      expect(code, printed).toBe(0)
      expect(printed).toContain("applied 0001_init")
    }
    const refused = tessera(["migrate"], {
      DATABASE_URL: `postgresql://app:${PASSWORD}@127.0.0.1:1/auth`,
    })
    expect(refused.code).toBe(1)
    expect(refused.printed).toMatch(/ECONNREFUSED/)
    expect(refused.printed).not.toContain(PASSWORD)
  })
})
