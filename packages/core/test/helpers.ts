/**
 * Shared helpers for the core tests: configurations, requests, a cookie jar and
 * the few steps most flows start with (get a CSRF token, sign in). Everything
 * goes through `Auth()` with real `Request`s; nothing here reaches inside.
 */
import { Auth, type AuthConfig } from "@tessera/core"
import { CredentialsSignin } from "@tessera/core/errors"
import Credentials from "@tessera/core/providers/credentials"
import type { LoggerInstance, User } from "@tessera/core/types"

export const SECRET = "test-secret-0123456789abcdef-0123456789abcdef"
export const OTHER_SECRET = "another-secret-fedcba9876543210-fedcba9876543210"
export const ORIGIN = "http://localhost:3000"
export const HTTPS_ORIGIN = "https://app.example"

/** A logger that records instead of printing, so tests can assert on what was logged. */
export function recordingLogger() {
  const errors: Error[] = []
  const warnings: string[] = []
  const debug: string[] = []
  /** Refusals the client caused: logged at debug level, so only with `debug: true`. */
  const refusals: Error[] = []
  const logger: LoggerInstance = {
    error: (error) => void errors.push(error),
    warn: (code) => void warnings.push(code),
    debug: (message, metadata) => {
      debug.push(message)
      const error = (metadata as { error?: unknown } | undefined)?.error
      if (error instanceof Error) refusals.push(error)
    },
  }
  return { logger, errors, warnings, debug, refusals }
}

export const ADA: User = {
  id: "user-1",
  name: "Ada Lovelace",
  email: "ada@example.com",
  image: "https://img.example/ada.png",
}

export class InvalidLogin extends CredentialsSignin {
  override code = "invalid_login"
}

/**
 * A credentials provider: `ada` / `correct horse` signs in; `throw` throws an
 * `InvalidLogin`; `crash` throws a plain error carrying a "secret" message.
 */
export function credentialsProvider(overrides: Record<string, unknown> = {}) {
  return Credentials({
    credentials: {
      username: { label: "Username", required: true },
      password: { label: "Password", type: "password" },
    },
    async authorize(credentials) {
      if (credentials.username === "throw") throw new InvalidLogin()
      if (credentials.username === "crash") throw new Error("db password hunter2 leaked")
      if (credentials.username === "ada" && credentials.password === "correct horse")
        return { ...ADA }
      return null
    },
    ...overrides,
  })
}

/** A test configuration with a credentials provider and a recording logger. */
export function makeConfig(overrides: Partial<AuthConfig> = {}) {
  const log = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    providers: [credentialsProvider()],
    logger: log.logger,
    ...overrides,
  }
  return { config, log }
}

export interface ParsedSetCookie {
  name: string
  value: string
  /** Attribute names lower-cased; flags map to `true`. */
  attributes: Record<string, string | true>
  raw: string
}

export function parseSetCookie(raw: string): ParsedSetCookie {
  const [pair, ...rest] = raw.split(/;\s*/)
  const eq = pair!.indexOf("=")
  const attributes: Record<string, string | true> = {}
  for (const part of rest) {
    const i = part.indexOf("=")
    if (i === -1) attributes[part.toLowerCase()] = true
    else attributes[part.slice(0, i).toLowerCase()] = part.slice(i + 1)
  }
  return {
    name: pair!.slice(0, eq),
    value: decodeURIComponent(pair!.slice(eq + 1)),
    attributes,
    raw,
  }
}

export function setCookies(response: Response): ParsedSetCookie[] {
  return response.headers.getSetCookie().map(parseSetCookie)
}

export function setCookie(response: Response, name: string): ParsedSetCookie | undefined {
  return setCookies(response).find((c) => c.name === name)
}

/** True when a Set-Cookie deletes its cookie. */
export function isExpired(cookie: ParsedSetCookie): boolean {
  return cookie.attributes["max-age"] === "0" || cookie.value === ""
}

/** A browser-like cookie store: applies Set-Cookie headers, sends the live cookies back. */
export class Jar {
  readonly cookies = new Map<string, string>()

  constructor(initial: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(initial)) this.cookies.set(k, v)
  }

  update(response: Response): this {
    for (const cookie of setCookies(response)) {
      if (isExpired(cookie)) this.cookies.delete(cookie.name)
      else this.cookies.set(cookie.name, cookie.value)
    }
    return this
  }

  get(name: string): string | undefined {
    return this.cookies.get(name)
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ")
  }
}

export interface RequestOptions {
  origin?: string
  jar?: Jar
  headers?: Record<string, string>
}

function headersFor(options: RequestOptions): Headers {
  const headers = new Headers(options.headers)
  if (options.jar && options.jar.cookies.size && !headers.has("cookie"))
    headers.set("cookie", options.jar.header())
  return headers
}

export function get(path: string, options: RequestOptions = {}): Request {
  return new Request(new URL(path, options.origin ?? ORIGIN), { headers: headersFor(options) })
}

/** A form POST (or JSON with `json: true`). */
export function post(
  path: string,
  body: Record<string, unknown>,
  options: RequestOptions & { json?: boolean } = {},
): Request {
  const headers = headersFor(options)
  let payload: string
  if (options.json) {
    headers.set("content-type", "application/json")
    payload = JSON.stringify(body)
  } else {
    headers.set("content-type", "application/x-www-form-urlencoded")
    payload = new URLSearchParams(body as Record<string, string>).toString()
  }
  return new Request(new URL(path, options.origin ?? ORIGIN), {
    method: "POST",
    headers,
    body: payload,
  })
}

/** GET /auth/csrf: the token, with its cookie stored in the jar. */
export async function csrfToken(
  config: AuthConfig,
  jar = new Jar(),
  origin = ORIGIN,
  basePath = "/auth",
): Promise<{ token: string; jar: Jar }> {
  const response = await Auth(get(`${basePath}/csrf`, { origin, jar }), config)
  if (response.status !== 200) throw new Error(`csrf answered ${response.status}`)
  jar.update(response)
  const { csrfToken: token } = (await response.json()) as { csrfToken: string }
  return { token, jar }
}

/** Signs in through POST /auth/callback/credentials; the jar then holds the session cookie. */
export async function signIn(
  config: AuthConfig,
  fields: Record<string, string> = { username: "ada", password: "correct horse" },
  options: { origin?: string; jar?: Jar; basePath?: string; providerId?: string } = {},
): Promise<{ response: Response; jar: Jar }> {
  const origin = options.origin ?? ORIGIN
  const basePath = options.basePath ?? "/auth"
  // With skipCSRFCheck there is no token to fetch (the csrf action answers 404).
  const { token, jar } = config.skipCSRFCheck
    ? { token: "", jar: options.jar ?? new Jar() }
    : await csrfToken(config, options.jar, origin, basePath)
  const response = await Auth(
    post(
      `${basePath}/callback/${options.providerId ?? "credentials"}`,
      { ...fields, csrfToken: token },
      { origin, jar },
    ),
    config,
  )
  jar.update(response)
  return { response, jar }
}

export function sessionCookieName(origin = ORIGIN): string {
  return origin.startsWith("https:") ? "__Secure-tessera.session-token" : "tessera.session-token"
}

export function csrfCookieName(origin = ORIGIN): string {
  return origin.startsWith("https:") ? "__Host-tessera.csrf-token" : "tessera.csrf-token"
}
