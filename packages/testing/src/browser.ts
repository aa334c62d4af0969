/**
 * A browser stand-in for tests that drive `Auth()` with real `Request`s: it
 * keeps the cookies the app sets (and clears) and sends them back, fetches a
 * CSRF token, and starts sign-ins the way a sign-in form does.
 *
 * @example
 * ```ts
 * import { AppBrowser, setsSession } from "@tessera/testing"
 * const browser = new AppBrowser(config)
 * const start = await browser.startSignIn("github") // 302 to GitHub
 * const done = await browser.request(callbackUrl)    // back from GitHub
 * setsSession(done)                                   // true when signed in
 * await browser.session()                            // { user, expires } or null
 * ```
 * @module
 */
import { Auth, type AuthConfig } from "@tessera/core"

/**
 * One `Set-Cookie` line, parsed: name, value, attributes.
 *
 * @see [RFC 6265 §4.1, Set-Cookie](https://www.rfc-editor.org/rfc/rfc6265.html#section-4.1)
 */
export interface SetCookie {
  name: string
  value: string
  attributes: Record<string, string | true>
}

/**
 * The cookies a response sets, values decoded, attribute names lower-cased.
 *
 * @param response The response to read.
 * @see [RFC 6265 §4.1, Set-Cookie](https://www.rfc-editor.org/rfc/rfc6265.html#section-4.1)
 */
export function parseSetCookies(response: Response): SetCookie[] {
  return response.headers.getSetCookie().map((line) => {
    const [pair, ...rest] = line.split(";")
    const eq = pair!.indexOf("=")
    const attributes: Record<string, string | true> = {}
    for (const part of rest) {
      const at = part.indexOf("=")
      const key = (at < 0 ? part : part.slice(0, at)).trim().toLowerCase()
      attributes[key] = at < 0 ? true : part.slice(at + 1).trim()
    }
    return {
      name: pair!.slice(0, eq).trim(),
      value: decodeURIComponent(pair!.slice(eq + 1).trim()),
      attributes,
    }
  })
}

/**
 * The session cookie's name on http (on https it has the `__Secure-` prefix).
 *
 * @see [docs/sessions.md: cookies and CSRF](https://github.com/tessera-auth/tessera/blob/main/docs/sessions.md#cookies-and-csrf)
 */
export const SESSION_COOKIE = "tessera.session-token"

/**
 * True when the response sets a (non-empty) session cookie.
 *
 * @param response The response to read.
 * @see {@link SESSION_COOKIE}
 */
export function setsSession(response: Response): boolean {
  return parseSetCookies(response).some(
    (c) => c.name.startsWith(SESSION_COOKIE) && c.value !== "" && c.attributes["max-age"] !== "0",
  )
}

/**
 * A browser for `Auth()` without a server: requests go straight to `Auth(request, config)`, cookies
 * kept in `jar`.
 *
 * @param config The configuration `Auth()` gets.
 * @param origin The app's origin.
 * @param basePath Where the auth routes are.
 * @see [docs/testing.md: signing in from a test](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#signing-in-from-a-test)
 */
export class AppBrowser {
  readonly jar = new Map<string, string>()
  constructor(
    readonly config: AuthConfig,
    readonly origin = "http://localhost:3000",
    readonly basePath = "/auth",
  ) {}

  cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ")
  }

  store(response: Response): void {
    for (const cookie of parseSetCookies(response)) {
      if (cookie.value === "" || cookie.attributes["max-age"] === "0") this.jar.delete(cookie.name)
      else this.jar.set(cookie.name, cookie.value)
    }
  }

  /** Sends a request to the app (`path` relative to the origin, or absolute) with the jar's cookies. */
  async request(
    path: string,
    init: {
      method?: string
      body?: Record<string, string> | URLSearchParams
      headers?: Record<string, string>
    } = {},
  ): Promise<Response> {
    const headers = new Headers(init.headers)
    if (this.jar.size) headers.set("cookie", this.cookieHeader())
    let body: string | undefined
    if (init.body) {
      body = new URLSearchParams(init.body).toString()
      headers.set("content-type", "application/x-www-form-urlencoded")
    }
    const url = path.startsWith("http") ? path : `${this.origin}${path}`
    const response = await Auth(
      new Request(url, { method: init.method ?? (body ? "POST" : "GET"), headers, body }),
      this.config,
    )
    this.store(response)
    return response
  }

  async csrf(): Promise<string> {
    const response = await this.request(`${this.basePath}/csrf`)
    return ((await response.json()) as { csrfToken: string }).csrfToken
  }

  /** POST signin/<id> with a CSRF token (and `fields`, e.g. `email`); returns the response (302 to the provider). */
  async startSignIn(
    providerId: string,
    options: {
      query?: Record<string, string>
      callbackUrl?: string
      fields?: Record<string, string>
    } = {},
  ): Promise<Response> {
    const csrfToken = await this.csrf()
    const query = options.query ? `?${new URLSearchParams(options.query)}` : ""
    const body: Record<string, string> = { ...options.fields, csrfToken }
    if (options.callbackUrl) body.callbackUrl = options.callbackUrl
    return this.request(`${this.basePath}/signin/${providerId}${query}`, { body })
  }

  async session(): Promise<any> {
    const response = await this.request(`${this.basePath}/session`)
    return response.json()
  }
}
