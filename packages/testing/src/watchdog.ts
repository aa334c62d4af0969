/**
 * Cleanup that survives this process: a tiny detached shell that waits for
 * this process to go (however it goes: SIGKILL, a crashed test worker) and
 * then runs a command, such as stopping a server started for the tests.
 * @module
 */
import { spawn } from "node:child_process"

/** Quotes a string for `sh`. */
export const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`

/**
 * Runs `command` (a shell command line) once this process has exited. Call
 * `cancel()` after cleaning up normally.
 */
export function afterExit(command: string): { cancel(): void } {
  const watchdog = spawn(
    "sh",
    ["-c", `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${command}`],
    { detached: true, stdio: "ignore" },
  )
  watchdog.unref()
  return {
    cancel() {
      try {
        if (watchdog.pid) process.kill(watchdog.pid)
      } catch {}
    },
  }
}
