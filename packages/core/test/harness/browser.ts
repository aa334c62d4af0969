/**
 * The one fake browser of the core tests: an origin, a cookie jar that honours
 * Set-Cookie (expiry included), and requests to `Auth()` with real `Request`s.
 */
import { Auth, type AuthConfig } from "@tessera/core"
import { ORIGIN } from "./config.js"
import { Jar } from "./cookies.js"

export interface FormRequestInit {
  method?: string
  /** Sent as `application/x-www-form-urlencoded`; POST unless `method` says otherwise. */
  body?: Record<string, string> | URLSearchParams
  headers?: Record<string, string>
}

export class Browser {
  constructor(
    readonly config: AuthConfig,
    readonly origin = ORIGIN,
    readonly jar = new Jar(),
  ) {}

  /** `path` (or an absolute URL) through `Auth()` with the jar's cookies; stores what comes back. */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    if (this.jar.size) headers.set("cookie", this.jar.header())
    const response = await Auth(
      new Request(new URL(path, this.origin), { ...init, headers }),
      this.config as Omit<AuthConfig, "raw">,
    )
    this.jar.update(response)
    return response
  }

  /** A GET, or a form POST when there is a body. */
  request(path: string, init: FormRequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    let body: string | undefined
    if (init.body) {
      body = new URLSearchParams(init.body as Record<string, string>).toString()
      headers.set("content-type", "application/x-www-form-urlencoded")
    }
    return this.fetch(path, { method: init.method ?? (body ? "POST" : "GET"), headers, body })
  }

  async csrfToken(): Promise<string> {
    const response = await this.fetch("/auth/csrf")
    return ((await response.json()) as { csrfToken: string }).csrfToken
  }

  /** POST signin/<id> with a CSRF token; returns the response (302 to the provider). */
  async startSignIn(
    providerId: string,
    options: { query?: Record<string, string>; callbackUrl?: string } = {},
  ): Promise<Response> {
    const csrfToken = await this.csrfToken()
    const query = options.query ? `?${new URLSearchParams(options.query)}` : ""
    const body: Record<string, string> = { csrfToken }
    if (options.callbackUrl) body.callbackUrl = options.callbackUrl
    return this.request(`/auth/signin/${providerId}${query}`, { body })
  }

  async session(): Promise<any> {
    const response = await this.fetch("/auth/session")
    return response.json()
  }

  async signOut(): Promise<Response> {
    const csrfToken = await this.csrfToken()
    return this.request("/auth/signout", { body: { csrfToken }, headers: { origin: this.origin } })
  }
}
