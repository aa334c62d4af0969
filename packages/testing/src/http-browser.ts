/**
 * A test "browser" for an app served over real HTTP: `fetch` with a cookie
 * jar, redirects left to the test (each is an assertion point), and the auth
 * steps a page would take (get a CSRF token, post a sign-in form, read the
 * session, sign out). `sendRaw` goes below `fetch` for what a browser cannot
 * send but an attacker can: a forged `Host`, an absolute-form request target.
 *
 * @example
 * ```ts
 * import { HttpBrowser } from "@tessera/testing"
 * const browser = new HttpBrowser("http://127.0.0.1:3000")
 * const signedIn = await browser.signInWithCredentials({ username: "alice", password: "secret" })
 * expect(signedIn.status).toBe(302)
 * expect((await browser.session())?.user?.name).toBe("Alice")
 * ```
 * @module
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http"
import type { Session } from "@tessera/core/types"
import { cookieHeader, storeCookies } from "./cookie-jar.js"

/**
 * Options of {@link HttpBrowser.request}: method, headers, and a form or JSON body.
 *
 * @see [docs/testing.md: over HTTP: HttpBrowser](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#over-http-httpbrowser)
 */
export interface BrowserRequestInit {
  method?: string
  headers?: Record<string, string>
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string>
  /** Sent as `application/json`. */
  json?: unknown
  /** Sent as it is (set `content-type` in `headers`). */
  body?: string | Uint8Array<ArrayBuffer>
}

/**
 * Your running app over real HTTP, as a browser without JavaScript: a cookie jar, redirects not
 * followed, helpers for the CSRF token, credentials sign-in and the session.
 *
 * @see [docs/testing.md: over HTTP: HttpBrowser](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#over-http-httpbrowser)
 */
export class HttpBrowser {
  /** Cookie name -> value, as the app set them. */
  readonly jar = new Map<string, string>()

  /**
   * @param origin The app's origin, `http://127.0.0.1:<port>`.
   * @param basePath Where the app serves the auth routes.
   * @param headers Sent with every request (a proxy's `X-Forwarded-*`, say).
   */
  constructor(
    readonly origin: string,
    readonly basePath = "/auth",
    readonly headers: Record<string, string> = {},
  ) {}

  /** A request to `path` (relative to the origin) with the jar's cookies; `Set-Cookie` goes to the jar. */
  async request(path: string | URL, init: BrowserRequestInit = {}): Promise<Response> {
    const headers: Record<string, string> = { ...this.headers, ...init.headers }
    const cookie = cookieHeader(this.jar)
    if (cookie) headers.cookie = cookie
    let body: string | Uint8Array<ArrayBuffer> | undefined = init.body
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded"
      body = new URLSearchParams(init.form).toString()
    } else if (init.json !== undefined) {
      headers["content-type"] = "application/json"
      body = JSON.stringify(init.json)
    }
    const response = await fetch(new URL(path, this.origin), {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      redirect: "manual",
    })
    storeCookies(this.jar, response.headers)
    return response
  }

  /** A CSRF token from `GET <basePath>/csrf` (its cookie goes to the jar). */
  async csrfToken(): Promise<string> {
    const response = await this.request(`${this.basePath}/csrf`)
    if (response.status !== 200) throw new Error(`GET csrf answered ${response.status}`)
    return ((await response.json()) as { csrfToken: string }).csrfToken
  }

  /** Posts a credentials sign-in form (with a fresh CSRF token); the answer is usually a 302. */
  async signInWithCredentials(
    fields: Record<string, string>,
    options: { providerId?: string; callbackUrl?: string; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const form: Record<string, string> = { ...fields, csrfToken: await this.csrfToken() }
    if (options.callbackUrl) form.callbackUrl = options.callbackUrl
    const path = `${this.basePath}/callback/${options.providerId ?? "credentials"}`
    return this.request(path, { form, headers: options.headers })
  }

  /** Starts an OAuth/OIDC sign-in: the answer is a 302 to the provider. */
  async startSignIn(providerId: string, options: { callbackUrl?: string } = {}): Promise<Response> {
    const form: Record<string, string> = { csrfToken: await this.csrfToken() }
    if (options.callbackUrl) form.callbackUrl = options.callbackUrl
    return this.request(`${this.basePath}/signin/${providerId}`, { form })
  }

  /** `GET <basePath>/session`: the session, or `null`. */
  async session(): Promise<Session | null> {
    const response = await this.request(`${this.basePath}/session`)
    if (response.status !== 200) throw new Error(`GET session answered ${response.status}`)
    return (await response.json()) as Session | null
  }

  /** Posts the sign-out form (with a fresh CSRF token). */
  async signOut(): Promise<Response> {
    return this.request(`${this.basePath}/signout`, { form: { csrfToken: await this.csrfToken() } })
  }
}

/**
 * A request {@link sendRaw} writes as given.
 *
 * @see [RFC 9112 §3.2, Request Target](https://www.rfc-editor.org/rfc/rfc9112.html#section-3.2)
 */
export interface RawRequest {
  method?: string
  /** The request target as sent on the request line: `/path`, or `http://host/path` (absolute form). */
  target: string
  /** Sent as given, `Host` included (`fetch` would replace it). */
  headers?: Record<string, string>
  body?: string
}

/**
 * What {@link sendRaw} got back.
 *
 * @see {@link sendRaw}
 */
export interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/**
 * One request over `node:http` to the server at `origin`, headers exactly as
 * given: for the requests a browser would never send.
 *
 * @param origin The app's origin.
 * @param request The method, target, headers and body to send as they are.
 * @see [RFC 9112 §3.2, Request Target](https://www.rfc-editor.org/rfc/rfc9112.html#section-3.2)
 */
export function sendRaw(origin: string, request: RawRequest): Promise<RawResponse> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: hostname,
        port,
        method: request.method ?? "GET",
        path: request.target,
        headers: request.headers,
      },
      (incoming) => {
        const chunks: Buffer[] = []
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
        incoming.on("end", () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        )
        incoming.on("error", reject)
      },
    )
    outgoing.on("error", reject)
    outgoing.end(request.body)
  })
}
