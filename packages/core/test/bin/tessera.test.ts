/**
 * The `tessera` command of @tessera/core (bin/tessera.js), run as `npx tessera`
 * runs it: a child process. `secret` needs nothing else; `migrate` and `purge`
 * are handed to @tessera/sql (the built one: `npm run build` first, as `npm
 * test` does). A project with core alone, and one with core and sql, are tested from the
 * packed tarballs in scripts/test/pack.test.ts.
 */
import { spawnSync } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import Database from "better-sqlite3"
import { afterAll, describe, expect, test } from "vitest"

const bin = fileURLToPath(new URL("../../bin/tessera.js", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "tessera-bin-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** `tessera ...args` in `cwd`: a directory outside the repository unless given. */
function tessera(args: string[], cwd = dir) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 20_000,
    env: { ...process.env, DATABASE_URL: "" },
  })
  return { code: result.status, out: result.stdout, err: result.stderr }
}

describe("tessera secret", () => {
  test("prints 32 random bytes, base64url, different each time", () => {
    const first = tessera(["secret"])
    const second = tessera(["secret"])
    expect(first.code).toBe(0)
    expect(first.out).toMatch(/^[A-Za-z0-9_-]{43}\n$/)
    expect(second.out).not.toBe(first.out)
    expect(first.err).toBe("")
  })

  test("takes no arguments", () => {
    const result = tessera(["secret", "--length", "64"])
    expect(result.code).toBe(2)
    expect(result.err).toContain("secret takes no arguments")
    expect(result.out).toBe("")
  })
})

describe("npx tessera in the repository", () => {
  test("npx tessera secret at the root runs core's command (npm links it at install)", () => {
    const root = fileURLToPath(new URL("../../../../", import.meta.url))
    // `--no`: never fetch a registry package of that name; the workspace's command must answer.
    const result = spawnSync("npx", ["--no", "tessera", "secret"], {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
    })
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^[A-Za-z0-9_-]{43}\n$/)
  })
})

describe("usage", () => {
  test("no command, or an unknown one: exit code 2 and the usage, the command quoted", () => {
    expect(tessera([]).code).toBe(2)
    const unknown = tessera(["\u001b[31mrm -rf"])
    expect(unknown.code).toBe(2)
    expect(unknown.err).toContain('Unknown command: "\\u001b[31mrm -rf"')
    expect(unknown.err).toContain("tessera secret")
  })
})

describe("database commands go to @tessera/sql", () => {
  test("tessera migrate --sqlite creates the tables, and says so", () => {
    const file = join(dir, "auth.db")
    const result = tessera(["migrate", "--sqlite", file])
    expect(result.err).toBe("")
    expect(result.code).toBe(0)
    expect(result.out).toContain("applied 0001_init")
    const db = new Database(file, { readonly: true })
    const tables = db.prepare("select name from sqlite_master where type = 'table'").all()
    db.close()
    expect(tables.map((row) => (row as { name: string }).name)).toContain("sessions")
    expect(tessera(["migrate", "--sqlite", file]).out).toContain("already up to date")
  })

  test("tessera purge and tessera help answer from @tessera/sql", () => {
    const purge = tessera(["purge", "--sqlite", join(dir, "auth.db")])
    expect(purge.code).toBe(0)
    expect(purge.out).toContain("deleted 0 expired sessions")
    const help = tessera(["help"])
    expect(help.code).toBe(0)
    expect(help.out).toContain("tessera migrate --from authjs")
  })

  test("tessera migrate with bad options: @tessera/sql's usage error, exit code 2", () => {
    const result = tessera(["migrate", "--mysql", "x"])
    expect(result.code).toBe(2)
    expect(result.err).toContain("Unknown option: --mysql")
  })
})

describe("without @tessera/sql", () => {
  // core's bin in a project of its own, outside the repository: no @tessera/sql anywhere it looks.
  const project = join(dir, "core-alone")
  const copy = join(project, "node_modules/@tessera/core/bin/tessera.js")
  mkdirSync(dirname(copy), { recursive: true })
  copyFileSync(bin, copy)
  const { version } = JSON.parse(
    readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
  ) as { version: string }
  writeFileSync(
    join(project, "node_modules/@tessera/core/package.json"),
    JSON.stringify({ name: "@tessera/core", version, type: "module" }),
  )
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "app", private: true }))

  test("tessera migrate says how to install it while it is not on the npm registry", () => {
    const result = spawnSync(process.execPath, [copy, "migrate"], {
      cwd: project,
      encoding: "utf8",
      timeout: 20_000,
    })
    expect(result.status).toBe(1)
    // `npm install @tessera/sql` alone is a registry 404 (or a stranger's package of that name).
    expect(result.stderr).not.toMatch(/npm install @tessera\/sql\b/)
    expect(result.stderr).toContain("needs @tessera/sql")
    expect(result.stderr).toContain(`npm install <checkout>/packs/tessera-sql-${version}.tgz`)
    expect(result.stderr).toContain("npm run pack")
  })

  test("the usage names the tarball too, never a bare registry install", () => {
    const result = spawnSync(process.execPath, [copy, "help"], { cwd: project, encoding: "utf8" })
    expect(result.status).toBe(0)
    expect(result.stdout).not.toMatch(/npm install @tessera\/sql\b/)
    expect(result.stdout).toContain(`tessera-sql-${version}.tgz`)
  })
})
