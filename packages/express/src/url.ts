/**
 * The URL and headers core is given for an Express request.
 *
 * Core builds every absolute URL (redirects, callback URLs, mailed sign-in
 * links, page form actions) from the request URL, and with `trustHost` it
 * would also read `X-Forwarded-Host`/`X-Forwarded-Proto`. Which proxy headers
 * to believe is the app's decision, made once with Express's `trust proxy`
 * setting, so the URL is built from Express's view (`req.protocol` and the
 * trusted host) and the forwarding headers are removed: one the app chose not
 * to trust never reaches core. `AUTH_URL`, when set, is the canonical origin
 * and wins over anything the request says.
 * @module
 */
import type { Request as ExpressRequest } from "express"

/** Headers a client can send to claim another origin; core must see only Express's verdict on them. */
const FORWARDING_HEADERS = [
  "forwarded",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
]

type TrustProxy = (address: string | undefined, hop: number) => boolean

/**
 * The host the client used, as Express decides it: `X-Forwarded-Host` (its
 * first value) when `trust proxy` trusts the peer, otherwise `Host`. Express
 * 5's `req.host` does exactly this; Express 4's `req.host` drops the port, so
 * both go through the compiled `trust proxy` function Express itself uses.
 */
function trustedHost(req: ExpressRequest): string | undefined {
  const trust = req.app.get("trust proxy fn") as TrustProxy | undefined
  const forwarded = req.get("x-forwarded-host")
  if (forwarded && trust?.(req.socket.remoteAddress, 0)) {
    return forwarded.split(",")[0]!.trim() || undefined
  }
  return req.get("host") || undefined
}

/** A host name or IP literal with an optional port: nothing else may become the origin. */
const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

/**
 * The absolute URL of `req`, or `undefined` when the request names no usable
 * host or protocol (throws only for a malformed `AUTH_URL`). `originalUrl` keeps the full path wherever the middleware
 * is mounted.
 */
export function requestUrl(req: ExpressRequest, authUrl: string | undefined): URL | undefined {
  let origin = canonicalOrigin(authUrl)
  if (!origin) {
    const host = trustedHost(req)
    // req.protocol is X-Forwarded-Proto from a trusted proxy: still only http or https.
    if (!host || !HOST.test(host) || (req.protocol !== "http" && req.protocol !== "https")) {
      return undefined
    }
    origin = `${req.protocol}://${host}`
  }
  try {
    // Concatenated, never resolved against the origin: a request target such as
    // `//attacker.test/auth/signin` or `http://attacker.test/...` must not pick the host.
    return new URL(`${origin}${pathAndQuery(req.originalUrl)}`)
  } catch {
    return undefined
  }
}

/** The path and query of a request target, also of the absolute form (`GET http://host/path`). */
export function pathAndQuery(target: string): string {
  if (target.startsWith("/")) return target
  try {
    const url = new URL(target)
    return `${url.pathname}${url.search}`
  } catch {
    return "/"
  }
}

/** `AUTH_URL`'s origin. A malformed one throws: falling back to the request's Host would trust it. */
function canonicalOrigin(url: string | undefined): string | undefined {
  if (!url) return undefined
  if (!URL.canParse(url)) throw new TypeError("AUTH_URL is not a valid URL")
  return new URL(url).origin
}

/**
 * The request's headers as web `Headers`, without the forwarding headers and
 * with `Host` set to the host of `url`, so nothing in them contradicts it.
 */
export function requestHeaders(req: ExpressRequest, url: URL): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else headers.set(name, value)
  }
  for (const name of FORWARDING_HEADERS) headers.delete(name)
  headers.set("host", url.host)
  return headers
}
