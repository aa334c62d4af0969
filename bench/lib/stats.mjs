// Small helpers shared by the benchmarks: medians and percentiles, the CPU time
// a process has used (from /proc), the machine's load, and writing results.
import { execFileSync } from "node:child_process"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { cpus, loadavg } from "node:os"

/** The median; the mean of the two middle values for an even count. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** The p-th percentile (0-100), nearest rank. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]
}

/** Rounds to `digits` decimals, as a number (for JSON output). */
export const round = (value, digits = 1) => Number(value.toFixed(digits))

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) || 100
  } catch {
    return 100
  }
})()

/** CPU time (user + system, all threads) the process has used, in microseconds; NaN off Linux. */
export function cpuMicros(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1e6
  } catch {
    return Number.NaN
  }
}

const loadAtStart = loadavg()

/** What the figures were measured on: Node, cores, and the load average (1, 5, 15 min). */
export function machine() {
  const load = (values) => values.map((value) => round(value, 2))
  return {
    node: process.version,
    cores: cpus().length,
    loadAverageAtStart: load(loadAtStart),
    loadAverage: load(loadavg()),
  }
}

/** Writes `bench/results/<name>.json` (git-ignored) with the date and the machine. */
export function writeResult(name, result) {
  const dir = new URL("../results/", import.meta.url)
  mkdirSync(dir, { recursive: true })
  const file = new URL(`${name}.json`, dir)
  writeFileSync(
    file,
    `${JSON.stringify({ benchmark: name, date: new Date().toISOString(), ...machine(), ...result }, null, 2)}\n`,
  )
  return file
}
