#!/usr/bin/env node
/**
 * The `tessera` command, from @tessera/core, so it is there in any project that
 * uses Tessera (`npx tessera secret`).
 *
 *   tessera secret                    a random value for AUTH_SECRET
 *   tessera migrate | purge [...]     database commands, run by @tessera/sql when installed
 *
 * Plain JavaScript, not built: it works in a fresh checkout before `npm run
 * build` and needs nothing but Node. The database commands live with the
 * database code in @tessera/sql (`@tessera/sql/cli`), found from the working
 * directory's project first, then from this package's own location.
 * @module
 */
import { randomBytes } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"

/**
 * How to install @tessera/sql. Not `npm install @tessera/sql`: the packages are not on the npm
 * registry yet, so that line is a 404 (or a stranger's package of that name). They are the
 * tarballs `npm run pack` writes, all of one version (core's, read from its package.json).
 */
const SQL_INSTALL = (() => {
  let version = "<version>"
  try {
    version = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version
  } catch {
    // A copy of the bin without its package.json: the placeholder says what to fill in.
  }
  return `npm run pack in a Tessera checkout, then npm install <checkout>/packs/tessera-sql-${version}.tgz`
})()

const USAGE = `Usage:
  tessera secret
      Prints a random secret for AUTH_SECRET (32 bytes, base64url)
  tessera migrate [--sqlite <path> | --postgres <url>]
  tessera migrate --from authjs [...]
  tessera purge [--sqlite <path> | --postgres <url>]
      Database commands, from @tessera/sql (${SQL_INSTALL}):
      \`tessera help\` lists their options when it is installed.
`

/** Commands @tessera/sql answers. */
const DATABASE_COMMANDS = new Set(["migrate", "purge"])

/**
 * Runs the command; resolves to the exit code (0 done, 1 failed, 2 usage).
 * @param {string[]} argv the arguments after `tessera`
 * @returns {Promise<number>}
 */
async function main(argv) {
  const [command, ...args] = argv
  if (command === undefined) return usage("No command given")
  if (command === "secret") {
    if (args.length) return usage("secret takes no arguments")
    process.stdout.write(`${randomBytes(32).toString("base64url")}\n`)
    return 0
  }
  const help = ["help", "--help", "-h"].includes(command)
  if (!help && !DATABASE_COMMANDS.has(command))
    return usage(`Unknown command: ${printable(command)}`)

  const sql = loadSqlCli()
  if (sql.file) {
    const { main: sqlMain } = await import(pathToFileURL(sql.file).href)
    return sqlMain(argv)
  }
  if (help) {
    process.stdout.write(USAGE)
    return 0
  }
  process.stderr.write(`tessera ${command}: ${sql.problem}\n`)
  return 1
}

/**
 * Where @tessera/sql's CLI module is, or why it cannot be run.
 * @returns {{ file?: string, problem?: string }}
 */
function loadSqlCli() {
  for (const from of [join(process.cwd(), "package.json"), import.meta.filename]) {
    let manifest
    try {
      manifest = createRequire(from).resolve("@tessera/sql/package.json")
    } catch {
      continue
    }
    const target = JSON.parse(readFileSync(manifest, "utf8")).exports?.["./cli"]?.default
    if (!target) return { problem: "the installed @tessera/sql is too old: update it" }
    const file = join(dirname(manifest), target)
    if (!existsSync(file))
      return { problem: "@tessera/sql is not built: run `npm run build` in the repository" }
    return { file }
  }
  return {
    problem: `needs @tessera/sql beside @tessera/core; it is not on the npm registry yet: ${SQL_INSTALL} (https://github.com/tessera-auth/tessera#install)`,
  }
}

function usage(message) {
  process.stderr.write(`tessera: ${message}\n\n${USAGE}`)
  return 2
}

/** A command name as given, cut short and without control characters (it is echoed). */
function printable(text) {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text)
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error) => {
    process.stderr.write(`tessera: ${error?.message ?? error}\n`)
    process.exitCode = 1
  },
)
