#!/usr/bin/env node
/**
 * The `tessera` command.
 *
 *   tessera migrate [--sqlite <path> | --postgres <url>]
 *   tessera secret
 *
 * `migrate` without a flag uses `DATABASE_URL` (a postgres:// URL, or a SQLite
 * path, optionally prefixed `file:` or `sqlite:`), else `./data/auth.db`.
 * `secret` prints 32 random bytes, base64url: a value for `AUTH_SECRET`.
 * @module
 */
import { randomBytes } from "node:crypto"
import { realpathSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { SqlAdapter, type SqlAdapterInstance } from "./index.js"
import { maskUrl, redactString, secretsOf } from "./redact.js"

export interface CliIO {
  out(text: string): void
  err(text: string): void
  env: Record<string, string | undefined>
}

const USAGE = `Usage:
  tessera migrate [--sqlite <path> | --postgres <url>]
      Creates or updates the auth tables. Default: DATABASE_URL, else ./data/auth.db
  tessera secret
      Prints a random secret for AUTH_SECRET (32 bytes, base64url)
`

const defaultIO: CliIO = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
}

export type Target = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string }

class UsageError extends Error {}

/** Where `tessera migrate` would write, from its arguments and environment. */
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
  if (url) {
    if (/^postgres(ql)?:\/\//i.test(url)) return { kind: "postgres", url }
    return { kind: "sqlite", path: url.replace(/^(sqlite|file):(\/\/)?/i, "") }
  }
  return { kind: "sqlite", path: "./data/auth.db" }
}

async function runMigrate(args: string[], io: CliIO): Promise<number> {
  const target = resolveTarget(args, io.env)
  const secrets = target.kind === "postgres" ? secretsOf(target.url) : []
  const label =
    target.kind === "postgres" ? `PostgreSQL ${maskUrl(target.url)}` : `SQLite ${target.path}`
  let adapter: SqlAdapterInstance | undefined
  try {
    adapter =
      target.kind === "postgres" ? SqlAdapter.postgres(target.url) : SqlAdapter.sqlite(target.path)
    const { applied } = await adapter.migrate()
    io.out(
      applied.length
        ? `${label}: applied ${applied.join(", ")}\n`
        : `${label}: already up to date\n`,
    )
    return 0
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    io.err(`tessera migrate: ${label}: ${redactString(message, secrets)}\n`)
    return 1
  } finally {
    await adapter?.close().catch(() => undefined)
  }
}

/** Runs the CLI with `argv` (without `node` and the script); resolves to the exit code. */
export async function main(argv: string[], io: CliIO = defaultIO): Promise<number> {
  const [command, ...args] = argv
  try {
    switch (command) {
      case "migrate":
        return await runMigrate(args, io)
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

function invokedDirectly(): boolean {
  const script = process.argv[1]
  if (!script) return false
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
}

if (invokedDirectly()) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error) => {
      process.stderr.write(`tessera: ${redactString(String(error?.message ?? error))}\n`)
      process.exitCode = 1
    },
  )
}
