#!/usr/bin/env node
/**
 * The `tessera-sql` command: runs {@link main} of `./cli.js` with the process's arguments. A
 * module of its own so that importing `@tessera/sql/cli` (as core's `tessera` command does) runs
 * nothing at import.
 * @module
 */
import { main } from "./cli.js"
import { redactString } from "./redact.js"

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: { message?: unknown } | undefined) => {
    process.stderr.write(`tessera: ${redactString(String(error?.message ?? error))}\n`)
    process.exitCode = 1
  },
)
