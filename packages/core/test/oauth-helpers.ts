/**
 * Shared by the oauth-* tests. `AppBrowser` (drives `Auth()` with real
 * `Request`s and keeps the app's cookies), `StandIn` (a loopback server that
 * answers as any host through a provider's `customFetch`) and `FakeIssuer` (an
 * authorization server on a StandIn, whose ID Tokens tests can make wrong on
 * purpose) live in `@tessera/testing`, where apps can use them too.
 */
export {
  AppBrowser,
  FakeIssuer,
  json,
  parseSetCookies,
  SESSION_COOKIE,
  setsSession,
  StandIn,
  type CodeRecord,
  type FakeIssuerOptions,
  type Recorded,
  type SetCookie,
} from "@tessera/testing"

export const SECRET = "a-test-secret-that-is-long-enough-0123456789"

/** Collects what the logger receives, so tests can check a cause was logged (and nothing secret). */
export function recordingLogger() {
  const errors: Error[] = []
  const warnings: string[] = []
  /** Refusals the client caused, logged at debug level (configs need `debug: true` to see them). */
  const refusals: Error[] = []
  return {
    errors,
    warnings,
    refusals,
    logger: {
      error: (e: Error) => void errors.push(e),
      warn: (code: string) => void warnings.push(code),
      debug: (_message: string, metadata?: unknown) => {
        const error = (metadata as { error?: unknown } | undefined)?.error
        if (error instanceof Error) refusals.push(error)
      },
    },
  }
}
