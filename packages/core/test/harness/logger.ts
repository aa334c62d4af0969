/** The one recording logger of the core tests: it records what `Auth()` logs instead of printing it. */
import type { LoggerInstance } from "@tessera/core/types"

/** One logged error or refusal. */
export interface Logged {
  type?: string
  message: string
  cause?: string
}

/** A logger that records instead of printing, so tests can assert on what was logged. */
export function recordingLogger() {
  const errors: Error[] = []
  const warnings: string[] = []
  const debug: string[] = []
  /** Refusals the client caused: logged at debug level, so only with `debug: true`. */
  const refusals: Error[] = []
  /** Errors and refusals in the order they came, summarised (type, message, the cause's message). */
  const logged: Logged[] = []
  const summarise = (error: Error & { type?: string; cause?: unknown }) => {
    const cause = error.cause as { err?: { message?: string } } | undefined
    logged.push({ type: error.type, message: error.message, cause: cause?.err?.message })
  }
  const logger: LoggerInstance = {
    error: (error) => {
      errors.push(error)
      summarise(error)
    },
    warn: (code) => void warnings.push(code),
    debug: (message, metadata) => {
      debug.push(message)
      const error = (metadata as { error?: unknown } | undefined)?.error
      if (error instanceof Error) {
        refusals.push(error)
        summarise(error)
      }
    },
  }
  return { logger, errors, warnings, debug, refusals, logged }
}
