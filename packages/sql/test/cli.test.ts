import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import Sqlite from "better-sqlite3"
import { afterAll, describe, expect, test } from "vitest"
import { main, resolveTarget, type CliIO } from "../src/cli.js"
import { migrations } from "../src/migrations.js"
import { sqliteTables } from "./helpers.js"

const dir = mkdtempSync(join(tmpdir(), "tessera-cli-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function io(env: CliIO["env"] = {}) {
  const out: string[] = []
  const err: string[] = []
  return {
    out,
    err,
    io: { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s), env },
  }
}

const tables = sqliteTables

describe("tessera secret", () => {
  test("prints 32 random bytes, base64url", async () => {
    const a = io()
    const b = io()
    expect(await main(["secret"], a.io)).toBe(0)
    expect(await main(["secret"], b.io)).toBe(0)
    const secret = a.out.join("").trim()
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(secret, "base64url")).toHaveLength(32)
    expect(b.out.join("").trim()).not.toBe(secret)
  })
})

describe("tessera migrate", () => {
  test("--sqlite creates the tables, then has nothing to do", async () => {
    const file = join(dir, "sub", "auth.db")
    const first = io()
    expect(await main(["migrate", "--sqlite", file], first.io)).toBe(0)
    expect(first.out.join("")).toContain("applied 0001_init")
    expect(tables(file)).toEqual(
      expect.arrayContaining([
        "accounts",
        "authenticators",
        "sessions",
        "users",
        "verification_tokens",
      ]),
    )
    const second = io()
    expect(await main(["migrate", `--sqlite=${file}`], second.io)).toBe(0)
    expect(second.out.join("")).toContain("already up to date")
  })

  test("uses DATABASE_URL when no flag is given", async () => {
    const file = join(dir, "from-env.db")
    const run = io({ DATABASE_URL: `file:${file}` })
    expect(await main(["migrate"], run.io)).toBe(0)
    expect(tables(file)).toContain("users")
  })

  test("target: flag, then DATABASE_URL, then ./data/auth.db", () => {
    expect(resolveTarget([], {})).toEqual({ kind: "sqlite", path: "./data/auth.db" })
    expect(resolveTarget([], { DATABASE_URL: "postgresql://u:p@h/db" })).toEqual({
      kind: "postgres",
      url: "postgresql://u:p@h/db",
    })
    expect(resolveTarget([], { DATABASE_URL: "sqlite:./x.db" })).toEqual({
      kind: "sqlite",
      path: "./x.db",
    })
    expect(resolveTarget(["--postgres", "postgres://h/db"], { DATABASE_URL: "./y.db" })).toEqual({
      kind: "postgres",
      url: "postgres://h/db",
    })
    expect(() => resolveTarget(["--sqlite", "a", "--postgres", "b"], {})).toThrow(/one of/)
  })

  test("a failure exits 1 and prints no password", async () => {
    const run = io()
    const code = await main(
      ["migrate", "--postgres", "postgres://tessera:Sup3r-Secret@127.0.0.1:1/auth"],
      run.io,
    )
    expect(code).toBe(1)
    const printed = run.err.join("") + run.out.join("")
    expect(printed).toMatch(/ECONNREFUSED/)
    expect(printed).not.toContain("Sup3r-Secret")
    expect(printed).toContain("postgres://tessera:***@127.0.0.1:1/auth")
    // A URL too broken to parse (space and "@" in the password, a bad port).
    const broken = io()
    expect(
      await main(
        ["migrate", "--postgres", "postgres://tessera:Sup3r Se@cret@127.0.0.1:notaport/auth"],
        broken.io,
      ),
    ).toBe(1)
    const text = broken.err.join("") + broken.out.join("")
    expect(text).not.toMatch(/Sup3r|Se@cret/)
  })
})

describe("usage", () => {
  test("unknown commands and options exit 2 with the usage", async () => {
    const a = io()
    expect(await main(["frobnicate"], a.io)).toBe(2)
    expect(a.err.join("")).toMatch(/Unknown command[\s\S]*Usage:/)
    const b = io()
    expect(await main(["migrate", "--mysql", "x"], b.io)).toBe(2)
    const c = io()
    expect(await main([], c.io)).toBe(2)
    const d = io()
    expect(await main(["--help"], d.io)).toBe(0)
    expect(d.out.join("")).toContain("tessera secret")
  })

  test("`<command> --help` prints the usage and runs nothing", async () => {
    for (const argv of [
      ["migrate", "--help"],
      ["purge", "-h"],
      ["migrate", "--from", "authjs", "--help"],
    ]) {
      const run = io()
      expect(await main(argv, run.io)).toBe(0)
      expect(run.out.join("")).toContain("Usage:")
      expect(run.err).toEqual([])
    }
  })
})

const dist = fileURLToPath(new URL("../dist/bin.js", import.meta.url))

describe("the built binary", () => {
  test.runIf(existsSync(dist))("node dist/bin.js secret", () => {
    const result = spawnSync(process.execPath, [dist, "secret"], {
      encoding: "utf8",
      timeout: 20_000,
    })
    expect(result.status).toBe(0)
    expect(result.stdout.trim()).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const file = join(dir, "spawned.db")
    const migrated = spawnSync(process.execPath, [dist, "migrate", "--sqlite", file], {
      encoding: "utf8",
      timeout: 20_000,
    })
    expect(migrated.status).toBe(0)
    expect(tables(file)).toContain("sessions")
  })

  // Kysely takes no migration lock on SQLite (it assumes one connection), so
  // processes sharing a file would each run 0001 and all but one fail on
  // recording it. The processes start migrating at the same instant.
  test.runIf(existsSync(dist))(
    "several processes migrating one new file at once all succeed, and 0001 is recorded once",
    async () => {
      const file = join(dir, "raced.db")
      const index = fileURLToPath(new URL("../dist/index.js", import.meta.url))
      const script = `
      const { SqlAdapter } = await import(${JSON.stringify(index)})
      const adapter = SqlAdapter.sqlite(process.argv[1])
      await new Promise((resolve) => setTimeout(resolve, Number(process.argv[2]) - Date.now()))
      try { await adapter.migrate() } finally { await adapter.close() }
    `
      const startAt = String(Date.now() + 2_000)
      const run = () =>
        new Promise<{ code: number | null; output: string }>((resolve) => {
          const child = spawn(
            process.execPath,
            ["--input-type=module", "-e", script, file, startAt],
            {
              stdio: ["ignore", "pipe", "pipe"],
              timeout: 30_000,
            },
          )
          let output = ""
          child.stdout.on("data", (chunk) => (output += chunk))
          child.stderr.on("data", (chunk) => (output += chunk))
          child.on("close", (code) => resolve({ code, output }))
        })
      const results = await Promise.all([run(), run(), run(), run()])
      expect(
        results.map((r) => r.code),
        results.map((r) => r.output).join("\n"),
      ).toEqual([0, 0, 0, 0])
      const db = new Sqlite(file, { readonly: true })
      try {
        expect(db.prepare("select name from tessera_migrations").all()).toEqual(
          Object.keys(migrations("sqlite")).map((name) => ({ name })),
        )
      } finally {
        db.close()
      }
    },
    40_000,
  )
})
