// Records every module Node loads, in order, into the file named by
// BENCH_LOAD_LOG (one URL per line). Preload it with
// `node --import ./bench/lib/load-recorder.mjs`: on the main thread it
// registers itself as a module-loading hook, and in the hooks thread its
// `load` hook appends each URL as the module is loaded.
import { appendFileSync } from "node:fs"
import { register } from "node:module"
import { isMainThread } from "node:worker_threads"

if (isMainThread) register(import.meta.url)

export async function load(url, context, next) {
  const result = await next(url, context)
  if (process.env.BENCH_LOAD_LOG && !url.startsWith("node:"))
    appendFileSync(process.env.BENCH_LOAD_LOG, `${url}\n`)
  return result
}

/** Writes a marker line (`# name`) into the log, between the modules loaded before and after. */
export function mark(name) {
  if (process.env.BENCH_LOAD_LOG) appendFileSync(process.env.BENCH_LOAD_LOG, `# ${name}\n`)
}
