/**
 * The database commands of `tessera`. The `tessera` bin belongs to @tessera/core
 * (so `npx tessera secret` works in any project) and hands `migrate`, `purge`
 * and `help` to `main` here (`@tessera/sql/cli`). This package's own bin is
 * `tessera-sql`, a name that cannot clash with core's when both are installed,
 * for package managers that link only direct dependencies' bins (`bin.ts`: importing this
 * module runs nothing).
 *
 *   tessera migrate [--sqlite <path> | --postgres <url>]
 *   tessera migrate --from authjs [--sqlite <path> | --postgres <url>] [--to <url or file>] [--apply]
 *   tessera purge [--sqlite <path> | --postgres <url>]
 *   tessera secret
 *
 * `migrate` without a flag uses `DATABASE_URL` (a postgres:// URL, or a SQLite
 * path, optionally prefixed `file:` or `sqlite:`), else `./data/auth.db`.
 * With `--from authjs` that database is an Auth.js app's, imported into
 * Tessera's tables (see `import/authjs`): a dry run unless `--apply`.
 * `secret` prints 32 random bytes, base64url: a value for `AUTH_SECRET`.
 * @module
 */
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { describeLocation, type DatabaseLocation } from "./dialects.js"
import { formatReport, ImportRefused, importAuthjs } from "./import/authjs/index.js"
import { SqlAdapter, type SqlAdapterInstance } from "./index.js"
import { redactString, secretsOf } from "./redact.js"

/**
 * Where the CLI writes and what it reads: its output streams and environment (replaceable in
 * tests).
 *
 * @see {@link main}
 */
export interface CliIO {
  out(text: string): void
  err(text: string): void
  env: Record<string, string | undefined>
}

const USAGE = `Usage:
  tessera migrate [--sqlite <path> | --postgres <url>]
      Creates or updates the auth tables. Default: DATABASE_URL, else ./data/auth.db
  tessera migrate --from authjs [--sqlite <path> | --postgres <url>] [--to <url or file>] [--apply]
      Imports an Auth.js database (Kysely, Prisma or Drizzle tables) into Tessera's tables:
      beside the Auth.js tables, which are never changed, or into the --to database.
      Prints what it would do; --apply does it, in one transaction.
  tessera purge [--sqlite <path> | --postgres <url>]
      Deletes expired sessions, e-mail links, used passkey challenges and rate-limit counters
  tessera secret
      Prints a random secret for AUTH_SECRET (32 bytes, base64url)
`

const defaultIO: CliIO = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
}

/**
 * The database a command works on: a SQLite file or a PostgreSQL URL.
 *
 * @see {@link resolveTarget}
 */
export type Target = DatabaseLocation

class UsageError extends Error {}

/** `scheme://`: a URL, not a path. */
const URL_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i

/**
 * A postgres:// URL, or a SQLite path (optionally prefixed `file:` or `sqlite:`).
 * Any other URL (`mysql://`, `postgres+ssl://`) is a usage error naming only its
 * scheme: taken for a path, it would become directories named after its
 * password, and a SQLite file migrated in place of the database meant.
 */
function locationOf(url: string, name: string): Target {
  if (/^postgres(ql)?:\/\//i.test(url)) return { kind: "postgres", url }
  const scheme = URL_SCHEME.exec(url)?.[1]
  if (scheme && !/^(sqlite|file)$/i.test(scheme))
    throw new UsageError(
      `${name} is a ${scheme.toLowerCase()}:// URL; tessera works on a postgres:// URL or a SQLite path`,
    )
  return { kind: "sqlite", path: url.replace(/^(sqlite|file):(\/\/)?/i, "") }
}

/**
 * Where `tessera migrate` would write, from its arguments and environment.
 *
 * @param args The command's arguments (`--sqlite <file>`, `--postgres <url>`).
 * @param env The environment (`DATABASE_URL`, ...).
 * @see [docs/databases.md](https://github.com/tessera-auth/tessera/blob/main/docs/databases.md)
 */
export function resolveTarget(args: string[], env: CliIO["env"]): Target {
  let target: Target | undefined
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined]
    if (flag !== "--sqlite" && flag !== "--postgres")
      throw new UsageError(`Unknown option: ${redactString(arg)}`)
    const value = inline ?? args[++i]
    if (!value) throw new UsageError(`${flag} needs a value`)
    if (target) throw new UsageError("Give one of --sqlite or --postgres")
    target =
      flag === "--sqlite" ? { kind: "sqlite", path: value } : { kind: "postgres", url: value }
  }
  if (target) return target
  const url = env.DATABASE_URL?.trim()
  if (url) return locationOf(url, "DATABASE_URL")
  return { kind: "sqlite", path: "./data/auth.db" }
}

/** Takes `--from`, `--to` and `--apply` out of `args`; the rest name the database. */
function importFlags(args: string[]) {
  const rest: string[] = []
  let from: string | undefined
  let to: string | undefined
  let apply = false
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1
    const flag = eq === -1 ? arg : arg.slice(0, eq)
    if (flag === "--apply") {
      if (eq !== -1) throw new UsageError("--apply takes no value")
      apply = true
    } else if (flag === "--from" || flag === "--to") {
      const value = eq === -1 ? args[++i] : arg.slice(eq + 1)
      if (!value) throw new UsageError(`${flag} needs a value`)
      if (flag === "--from") from = value
      else to = value
    } else rest.push(arg)
  }
  return { rest, from, to, apply }
}

async function runMigrate(args: string[], io: CliIO): Promise<number> {
  const { rest, from, to, apply } = importFlags(args)
  if (from !== undefined) {
    if (from !== "authjs")
      throw new UsageError(`Unknown --from: ${redactString(from)} (supported: authjs)`)
    return runAuthjsImport(resolveTarget(rest, io.env), to, apply, io)
  }
  if (to !== undefined || apply) throw new UsageError("--to and --apply go with --from authjs")
  return withAdapter("migrate", rest, io, async (adapter, label) => {
    const { applied } = await adapter.migrate()
    io.out(
      applied.length
        ? `${label}: applied ${applied.join(", ")}\n`
        : `${label}: already up to date\n`,
    )
  })
}

/** Opens the database `args` name, runs `work` on the adapter, closes it; errors are redacted. */
async function withAdapter(
  command: string,
  args: string[],
  io: CliIO,
  work: (adapter: SqlAdapterInstance, label: string) => Promise<void>,
): Promise<number> {
  const target = resolveTarget(args, io.env)
  const secrets = target.kind === "postgres" ? secretsOf(target.url) : []
  const label = describeLocation(target)
  let adapter: SqlAdapterInstance | undefined
  try {
    // No statement timeout: an operator's command may rightly run long (an index built on a
    // large table, a purge after months), and whoever runs it can stop it.
    adapter =
      target.kind === "postgres"
        ? SqlAdapter.postgres({ connectionString: target.url, query_timeout: 0 })
        : SqlAdapter.sqlite(target.path)
    await work(adapter, label)
    return 0
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    io.err(`tessera ${command}: ${label}: ${redactString(message, secrets)}\n`)
    return 1
  } finally {
    await adapter?.close().catch(() => undefined)
  }
}

function runPurge(args: string[], io: CliIO): Promise<number> {
  const target = resolveTarget(args, io.env)
  // Opening a SQLite path creates the file: a mistyped one would leave an empty database behind.
  if (target.kind === "sqlite" && target.path !== ":memory:" && !existsSync(target.path)) {
    io.err(
      `tessera purge: ${describeLocation(target)}: No database file there; run tessera migrate` +
        " first (purge creates nothing).\n",
    )
    return Promise.resolve(1)
  }
  return withAdapter("purge", args, io, async (adapter, label) => {
    const { sessions, verificationTokens, rateLimits } = await adapter.purge()
    io.out(
      `${label}: deleted ${sessions} expired sessions, ${verificationTokens} verification tokens, ${rateLimits} rate-limit counters\n`,
    )
  })
}

async function runAuthjsImport(
  from: Target,
  to: string | undefined,
  apply: boolean,
  io: CliIO,
): Promise<number> {
  const target = to === undefined ? undefined : locationOf(to.trim(), "--to")
  const secrets = [from, target].flatMap((t) => (t?.kind === "postgres" ? secretsOf(t.url) : []))
  try {
    const report = await importAuthjs({ from, ...(target ? { to: target } : {}), apply })
    io.out(formatReport(report))
    return 0
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const where = error instanceof ImportRefused ? "" : `${describeLocation(from)}: `
    io.err(`tessera migrate --from authjs: ${where}${redactString(message, secrets)}\n`)
    return 1
  }
}

/**
 * Runs the CLI with `argv` (without `node` and the script); resolves to the exit code.
 *
 * @param argv The arguments after the script.
 * @param io Where to write and what environment to read (default: the process's).
 * @see [docs/databases.md](https://github.com/tessera-auth/tessera/blob/main/docs/databases.md)
 */
export async function main(argv: string[], io: CliIO = defaultIO): Promise<number> {
  const [command, ...args] = argv
  try {
    // `tessera migrate --help` asks for the usage, not for a migration.
    if (args.includes("--help") || args.includes("-h")) {
      io.out(USAGE)
      return 0
    }
    switch (command) {
      case "migrate":
        return await runMigrate(args, io)
      case "purge":
        return await runPurge(args, io)
      case "secret":
        if (args.length) throw new UsageError("secret takes no arguments")
        io.out(`${randomBytes(32).toString("base64url")}\n`)
        return 0
      case "help":
      case "--help":
      case "-h":
        io.out(USAGE)
        return 0
      default:
        throw new UsageError(
          command ? `Unknown command: ${redactString(command)}` : "No command given",
        )
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.err(`tessera: ${error.message}\n\n${USAGE}`)
    return 2
  }
}
