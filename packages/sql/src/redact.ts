/**
 * Keeps passwords, and the values a constraint error quotes (a key's, or a
 * refused row's), out of errors.
 * Connection details turn up in errors in places nobody thinks of (Node's
 * `ERR_INVALID_URL` carries the whole URL in `input`: `pg` scrubs that one
 * itself, but not every code path or driver version does), and errors end up
 * in logs. Every error leaving this package goes through `redactError`; the
 * CLI also scrubs what it prints.
 * @module
 */

/** `scheme://user:password@` -> `scheme://user:***@` */
const URL_USERINFO = /([a-z][a-z0-9+.-]*:\/\/[^:/?#\s@]*:)[^@\s]*@/gi

/** The password of a URL too malformed to parse: from the user's ":" to the last "@". */
const LOOSE_USERINFO = /^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*:)(.*)@/is

/**
 * A password given as a parameter rather than in the userinfo: `pg` takes
 * `?password=` from a URL's query (over the userinfo's), and libpq's keyword
 * form says `password=... host=...`; `sslpassword` unlocks a client key. The
 * value runs to the next `&`, blank or `#`, or is quoted ('...', keyword form).
 */
const PARAM_PASSWORD = /(^|[?&;\s])((?:ssl)?password\s*=\s*)('(?:[^'\\]|\\.)*(?:'|$)|[^&\s#]*)/gi

/** A query parameter's name (decoded) that carries a password. */
const PASSWORD_PARAM = /^(ssl)?password$/i

/**
 * The values PostgreSQL quotes in a constraint error's `detail`:
 * `Key (email)=(ada@example.com) already exists.` A unique violation on users
 * or accounts names an e-mail address or a provider's account id, and such an
 * error is logged as a server fault. The column names stay.
 */
const KEY_VALUES = /\b(Key \(.*?\)=\().*(\)(?: already exists| is not present|$))/g

/**
 * The row PostgreSQL quotes whole when it refuses one (a not-null or check
 * violation): `Failing row contains (<every column's value>).`, OAuth tokens and
 * e-mail addresses included.
 */
const FAILING_ROW = /\b(Failing row contains \().*(\)\.?)/gs

/** Replaces every secret (and any password in a URL, any value a key error quotes) in a string. */
export function redactString(value: string, secrets: readonly string[] = []): string {
  let out = value
  for (const secret of secrets) if (secret) out = out.split(secret).join("***")
  return out
    .replace(URL_USERINFO, "$1***@")
    .replace(PARAM_PASSWORD, "$1$2***")
    .replace(KEY_VALUES, "$1***$2")
    .replace(FAILING_ROW, "$1***$2")
}

/**
 * Scrubs, in place, the string properties (message, stack, input, ...) of an
 * error, its `cause` chain and an AggregateError's `errors`. The error keeps its
 * class and `code`, so callers can still tell a unique violation from a lost
 * connection. Returns the error, for `throw redactError(e, secrets)`.
 *
 * @param error What a query threw.
 * @param secrets Further strings to cut (the connection string's password).
 * @see [PostgreSQL: error message fields](https://www.postgresql.org/docs/current/protocol-error-fields.html) (`detail` quotes row values)
 */
export function redactError<E>(error: E, secrets: readonly string[] = []): E {
  const seen = new Set<object>()
  const visit = (value: unknown, depth: number) => {
    if (depth > 5 || typeof value !== "object" || value === null || seen.has(value)) return
    if (!(value instanceof Error) && !Array.isArray(value)) return
    seen.add(value)
    const record = value as unknown as Record<string, unknown>
    for (const key of Object.getOwnPropertyNames(value)) {
      let v: unknown
      try {
        v = record[key]
      } catch {
        continue
      }
      if (typeof v === "string") {
        const clean = redactString(v, secrets)
        if (clean !== v) {
          try {
            record[key] = clean
          } catch {
            try {
              Object.defineProperty(value, key, { value: clean })
            } catch {}
          }
        }
      } else {
        visit(v, depth + 1)
      }
    }
  }
  visit(error, 0)
  return error
}

/** A connection URL fit to print: the password replaced by `***`. */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = "***"
    // Also a name spelled with escapes (`%70assword`): `pg` decodes names before it reads them.
    for (const name of new Set(parsed.searchParams.keys()))
      if (PASSWORD_PARAM.test(name)) parsed.searchParams.set(name, "***")
    return redactString(parsed.href)
  } catch {
    return redactString(url).replace(LOOSE_USERINFO, "$1***@")
  }
}

/** The strings to redact for a PostgreSQL connection string or pool config. */
export function secretsOf(
  config: string | { connectionString?: string; password?: unknown },
): string[] {
  const secrets: string[] = []
  const add = (s: unknown) => {
    if (typeof s === "string" && s.length > 0) secrets.push(s)
  }
  const fromUrl = (url: string) => {
    add(url)
    try {
      const parsed = new URL(url)
      add(parsed.password)
      add(decodeURIComponent(parsed.password))
      for (const [name, value] of parsed.searchParams) if (PASSWORD_PARAM.test(name)) add(value)
    } catch {
      // Not a parseable URL: the URL itself is already a secret.
      add(LOOSE_USERINFO.exec(url)?.[2])
    }
    // libpq's keyword form, or a query too broken to parse: the values as written.
    for (const match of url.matchAll(PARAM_PASSWORD)) {
      const value = match[3]!
      add(value)
      add(value.replace(/^'|'$/g, ""))
    }
  }
  if (typeof config === "string") fromUrl(config)
  else {
    if (config.connectionString) fromUrl(config.connectionString)
    add(config.password)
  }
  // Longest first, so a password inside the URL does not break the URL's match.
  return secrets.sort((a, b) => b.length - a.length)
}
