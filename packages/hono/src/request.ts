/**
 * The `Request` core is given for a Hono request, and the URL it is read at.
 *
 * Core builds every absolute URL (redirects, callback URLs, mailed sign-in
 * links, page form actions) from the request URL, and with `trustHost` it
 * would also read `X-Forwarded-Host`/`X-Forwarded-Proto`. The URL here is
 * Hono's own, `c.req.url`: what the runtime says the request was for (on
 * Node.js, `@hono/node-server` builds it from `Host`, ignoring any forwarding
 * header). The forwarding headers are then removed, so none the runtime did
 * not act on can reach core. `AUTH_URL`, when set, is the canonical origin and
 * wins over anything the request says.
 * @module
 */
import type { Context } from "hono"

/** Headers a client can send to claim another origin. */
const FORWARDING_HEADERS = [
  "forwarded",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
]

/**
 * The URL of the request with `AUTH_URL`'s origin when that is set, or
 * `undefined` when the request names no usable host. A malformed `AUTH_URL`
 * throws: falling back to the request's host would trust it.
 */
export function requestUrl(c: Context, authUrl: string | undefined): URL | undefined {
  const url = new URL(c.req.url)
  // An absolute-form target with userinfo (`GET http://a@evil.example/...`) becomes the URL on
  // Node.js, and no `Request` can be made for it: `c.req.raw` throws once touched (a 500). It is
  // no host, as Express's integration already says of it.
  if (url.username || url.password) return undefined
  if (!authUrl) return url
  if (!URL.canParse(authUrl)) throw new TypeError("AUTH_URL is not a valid URL")
  // Concatenated, not resolved: the request's path must not be able to change the origin.
  return new URL(`${new URL(authUrl).origin}${url.pathname}${url.search}`)
}

/**
 * The request with its URL moved to `authUrl`'s protocol, host name, port and credentials, path
 * and query kept (`@hono/auth-js`'s `reqWithEnvUrl`): for handlers of an app's own that call
 * `Auth()`. `authHandler()` needs none of it: it builds every URL on `AUTH_URL` itself. Without
 * `authUrl`, the request itself.
 *
 * @param req The request as the runtime gave it (`c.req.raw`).
 * @param authUrl `AUTH_URL`, or nothing.
 * @example
 * ```ts
 * app.post("/custom/signin", (c) => Auth(reqWithEnvUrl(c.req.raw, env(c).AUTH_URL), authConfig))
 * ```
 *
 * @see [@hono/auth-js](https://github.com/honojs/middleware/tree/main/packages/auth-js) (`reqWithEnvUrl`)
 */
export function reqWithEnvUrl(req: Request, authUrl?: string): Request {
  if (!authUrl) return req
  const url = new URL(req.url)
  const target = new URL(authUrl)
  for (const part of ["protocol", "hostname", "port", "username", "password"] as const)
    url[part] = target[part]
  return new Request(url, req)
}

/** The request's headers without the forwarding headers, and `Host` agreeing with `url`. */
export function requestHeaders(c: Context, url: URL): Headers {
  const headers = new Headers(c.req.raw.headers)
  for (const name of FORWARDING_HEADERS) headers.delete(name)
  headers.set("host", url.host)
  return headers
}

/**
 * The body an earlier middleware started reading could not be had: its read
 * failed (a multipart body `c.req.formData()` could not parse, a connection
 * dropped mid-body) and Hono keeps that failure as the cached body. The
 * client's doing: a 400, not a 500 in `app.onError`.
 */
export class BodyUnreadable extends Error {
  constructor() {
    super("Unreadable request body")
  }
}

/**
 * A `Request` for core at `url`. The body is passed on as a stream, so core's
 * own size limit applies as it reads; if a middleware already read it
 * (`c.req.json()`, `c.req.parseBody()`, `c.req.formData()`), Hono's cached copy is used.
 */
export async function authRequest(c: Context, url: URL): Promise<Request> {
  const raw = c.req.raw
  const headers = requestHeaders(c, url)
  if (raw.method === "GET" || raw.method === "HEAD" || !raw.body) {
    return new Request(url, { method: raw.method, headers })
  }
  if (raw.bodyUsed) {
    headers.delete("content-length")
    return new Request(url, { method: raw.method, headers, body: await cachedBody(c, headers) })
  }
  // `duplex` is required by Node's fetch for a streamed body; the DOM types do not know it yet.
  const init = { method: raw.method, headers, body: raw.body, duplex: "half", signal: raw.signal }
  return new Request(url, init)
}

/**
 * The body a middleware already read, from Hono's cache. A `FormData` it parsed
 * is sent as that `FormData`: re-encoded, it gets a boundary of its own, and
 * the client's `Content-Type` (naming the old boundary) must go with the old body.
 */
async function cachedBody(c: Context, headers: Headers): Promise<BodyInit> {
  try {
    // Typed as the value, but what Hono keeps there is the promise of it (rejected if it failed).
    const form = c.req.bodyCache.formData as Promise<FormData> | undefined
    if (form) {
      headers.delete("content-type")
      return await form
    }
    return await c.req.arrayBuffer()
  } catch {
    throw new BodyUnreadable()
  }
}
