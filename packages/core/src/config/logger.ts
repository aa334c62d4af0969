/**
 * The logger: `error` and `warn` to the console by default, `debug` only with
 * `debug: true`. A partial override keeps the defaults for the other methods; an
 * app's own `debug` is called whatever `debug` says (Auth.js: "when `logger` options
 * are set, the `debug` option is ignored").
 * @module
 */
import { AuthError } from "../errors.js"
import type { LoggerInstance, WarningCode } from "../types.js"

const warnings: Record<WarningCode, string> = {
  "debug-enabled":
    "Debug logging is on. Log output may contain personal data; turn it off in production.",
  "csrf-disabled":
    "CSRF checking is turned off (skipCSRFCheck). Only do this when another layer checks it.",
  "env-url-basepath-redundant": "AUTH_URL has a path and basePath is set too; basePath wins.",
  "env-url-basepath-mismatch": "AUTH_URL's path differs from basePath; basePath wins.",
  "trust-host-unbounded":
    "trustHost is on with no canonical URL (AUTH_URL) and no allowedHosts: any Host a client sends decides the links Tessera mails and the redirects it makes. Set AUTH_URL, or AUTH_ALLOWED_HOSTS.",
  "oauth-checks-none":
    'A provider runs with checks: ["none"] (dangerouslyAllowNoChecks): its callback is not tied to the browser that started the sign-in.',
  "recent-sign-in-unenforced":
    "Database sessions on an adapter without session records do not know when they signed in: adding a passkey, a linked account or a second factor does not ask for a recent sign-in. Use an adapter with session records (@tessera/sql), or set session.recentSignInAge to refuse such requests.",
  "session-records-unstored-user":
    "The adapter refused the session record of a credentials user it does not store (a foreign key to its users; with @tessera/sql, run `tessera migrate` for migration 0005): that session has no record, so listSessions, revokeUserSessions and signing out elsewhere do not reach it.",
  "rate-limit-codes-unguarded":
    "Second-factor or e-mailed codes are on while their rate limit (twoFactor, emailCode) is off: nothing bounds guesses at a code (a 6-digit TOTP code passes for 3 of its 10^6 values). Keep the limit, or set { max, window }.",
  "rate-limit-store-not-atomic":
    "rateLimit.store has no compareAndDelete: after a successful sign-in its counters are read, then deleted, and a failure counted in between (another attempt racing the sign-in) is deleted with them. Implement compareAndDelete (see the RateLimitStore interface), or use the memory, SQL or Redis store.",
  "rate-limit-client-address-missing":
    "A per-IP rate limit found no client address on a request (rateLimit.ipHeader missing, unreadable or with fewer entries than rateLimit.ipHeaderDepth; or rateLimit.clientAddress on and no address handed over): it was counted per identifier only. Check that every request reaches the app through all the proxies ipHeaderDepth counts, and nothing around them.",
  "refresh-id-token-refused":
    "A provider's token refresh answered with an ID Token that is not the account's (another sub, issuer or audience), was not issued with the answer, or whose signature does not verify: the refresh was refused and the stored tokens kept.",
  "insecure-issuer":
    "A provider allows http: requests (dangerouslyAllowInsecureHttpRequests). Use it for loopback test providers only.",
}

/** `scheme://user:password@` in a URL: what a database driver's error may quote. */
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^:/?#\s@]*:)[^@\s]*@/gi

/**
 * A password given as a parameter: `pg` reads `?password=` (and `sslpassword`) from a URL's
 * query, libpq's keyword form says `password=...`. The value runs to the next `&`, blank or
 * `#`, or is quoted ('...', the keyword form).
 */
const PARAM_PASSWORD = /(^|[?&;\s(])((?:ssl)?password\s*=\s*)('(?:[^'\\]|\\.)*(?:'|$)|[^&\s#]*)/gi

/**
 * `text` with the password of any connection string in it masked (in a URL's userinfo or
 * query, or libpq's keyword form). The errors printed here come from adapters and providers
 * too, and a driver's message may quote its connection string (`@tessera/sql` scrubs its
 * own; another adapter's may not). A value running into a closing parenthesis loses it too:
 * better than printing the rest of a password that holds one.
 */
function withoutPasswords(text: string): string {
  return text.replace(URL_PASSWORD, "$1***@").replace(PARAM_PASSWORD, "$1$2***")
}

/** Prints an error with its cause chain, never the request or its secrets. */
function printError(error: Error): void {
  const type = error instanceof AuthError ? error.type : error.name
  console.error(withoutPasswords(`[tessera][error] ${type}: ${error.message}`))
  const cause = (error as { cause?: unknown }).cause
  const inner = cause && typeof cause === "object" && "err" in cause ? cause.err : cause
  if (inner instanceof Error)
    console.error(withoutPasswords(`[tessera][cause]: ${inner.stack ?? inner.message}`))
  else if (error.stack) console.error(withoutPasswords(error.stack))
}

/** Metadata as the default logger prints it: errors by type and message, never with a stack. */
function printable(metadata: unknown): unknown {
  if (metadata === undefined) return ""
  if (typeof metadata !== "object" || metadata === null) return metadata
  return Object.fromEntries(
    Object.entries(metadata).map(([key, value]) => [
      key,
      value instanceof Error
        ? `${(value as AuthError).type ?? value.name}: ${value.message}`
        : value,
    ]),
  )
}

export function createLogger(
  debug: boolean,
  overrides: Partial<LoggerInstance> | undefined,
): LoggerInstance {
  const logger: LoggerInstance = {
    error: printError,
    warn: (code) => console.warn(`[tessera][warn][${code}] ${warnings[code] ?? ""}`),
    debug: (message, metadata) => console.debug(`[tessera][debug] ${message}`, printable(metadata)),
  }
  // As in Auth.js: `debug` gates the console only; an app's own `logger.debug` hears everything.
  if (!debug) logger.debug = () => {}
  if (overrides?.error) logger.error = overrides.error.bind(overrides)
  if (overrides?.warn) logger.warn = overrides.warn.bind(overrides)
  if (overrides?.debug) logger.debug = overrides.debug.bind(overrides)
  return logger
}
