/**
 * Which origin Tessera builds URLs on: the trust model for hosts.
 *
 * Every URL Tessera hands out (a mailed sign-in link, a redirect, a form's
 * action, an OAuth `redirect_uri`, the redirect proxy's target) is built on
 * one origin per request. A client must never choose it:
 *
 * 1. A canonical origin (`url`/`origin` in the configuration, `AUTH_URL`, or a
 *    framework's pinned URL passed the same way) is the only origin used
 *    whenever it is set. `Host` and `X-Forwarded-*` are then ignored for
 *    building URLs. With `trustHost: false`, a request whose own host differs
 *    from it is refused (400 `UntrustedHost`).
 * 2. Without one, `trustHost` decides whether the request's host
 *    (`X-Forwarded-Host`, else the URL's) may be used, and `allowedHosts`
 *    (`AUTH_ALLOWED_HOSTS`) bounds which hosts are accepted: any other host
 *    gets 400 `UntrustedHost`, never a link.
 * 3. Without either, Tessera cannot know its origin: every request answers
 *    with the configuration error.
 * @module
 */
import { InvalidConfiguration } from "../errors.js"

/** An exact host (`app.example.com`, `localhost:3000`) or a wildcard for subdomains (`*.example.com`). */
export type HostPattern = string

export interface OriginPolicy {
  /** The canonical origin, e.g. `https://app.example.com`, when one is configured. */
  readonly canonical: URL | undefined
  readonly trustHost: boolean
  /** Hosts accepted from requests (and as redirect-proxy targets); `undefined`: any, with `trustHost`. */
  readonly allowedHosts: readonly HostPattern[] | undefined
}

/** What a host may look like: a DNS name or an IPv6 literal, with an optional port. */
export const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i
const PATTERN = /^(?:\*\.)?(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

/** The canonical URL from `url`, `origin` or `AUTH_URL`: http(s), no credentials, query or fragment. */
export function parseCanonicalUrl(value: unknown, name: string): URL | undefined {
  if (value === undefined || value === null || value === "") return undefined
  let url: URL
  try {
    if (typeof value !== "string") throw new TypeError()
    url = new URL(value)
  } catch {
    throw new InvalidConfiguration(
      `${name} must be an absolute URL such as https://app.example.com`,
    )
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new InvalidConfiguration(`${name} must be an http or https URL`)
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new InvalidConfiguration(`${name} must not carry credentials, a query or a fragment`)
  }
  return url
}

/** `allowedHosts` (or `AUTH_ALLOWED_HOSTS`, comma-separated) as lower-cased patterns. */
export function parseAllowedHosts(value: unknown): HostPattern[] | undefined {
  if (value === undefined || value === null || value === "") return undefined
  const list = typeof value === "string" ? value.split(",") : value
  if (!Array.isArray(list)) {
    throw new InvalidConfiguration("allowedHosts must be a list of hosts such as app.example.com")
  }
  const hosts = list.map((host) => (typeof host === "string" ? host.trim().toLowerCase() : host))
  for (const host of hosts) {
    if (typeof host !== "string" || !PATTERN.test(host)) {
      throw new InvalidConfiguration(
        `allowedHosts: "${String(host)}" is not a host (app.example.com, localhost:3000 or *.example.com)`,
      )
    }
  }
  return hosts.filter((host) => host !== "")
}

/** True when `host` (lower-cased, with its port if any) matches one of `patterns`. */
export function isAllowedHost(host: string, patterns: readonly HostPattern[]): boolean {
  const candidate = host.toLowerCase()
  return patterns.some((pattern) => {
    if (!pattern.startsWith("*.")) return candidate === pattern
    // `*.example.com` covers subdomains at any depth, not the bare domain.
    return candidate.endsWith(pattern.slice(1)) && candidate.length > pattern.length - 1
  })
}

function firstValue(header: string | null): string | undefined {
  const value = header?.split(",")[0]?.trim()
  return value ? value : undefined
}

/** Why a request's host cannot be used (a 400); the message names the host, the client's own input. */
export class HostRefusal {
  constructor(
    readonly message: string,
    /** True when the host or protocol header is malformed rather than not allowed. */
    readonly malformed = false,
  ) {}
}

/**
 * The origin (and protocol) this request's URLs are built on, with the
 * request's path and query, or why the request cannot be served.
 *
 * @param url The request's own URL (from its `Host`, or a framework's).
 * @param headers The request's headers, for `X-Forwarded-Host`/`-Proto` when trusted.
 */
export function trustedUrl(policy: OriginPolicy, url: URL, headers: Headers): URL | HostRefusal {
  const { canonical, trustHost, allowedHosts } = policy
  if (canonical) {
    // URLs are built on the canonical origin whatever the request says. Which
    // hosts may reach it: only the canonical one (and allowedHosts) without
    // trustHost; with trustHost, any unless allowedHosts bounds them.
    const host = trustHost ? (firstValue(headers.get("x-forwarded-host")) ?? url.host) : url.host
    if (
      (!trustHost || allowedHosts) &&
      !isAllowedHost(host, [canonical.host, ...(allowedHosts ?? [])])
    ) {
      return new HostRefusal(`Host ${host} is not ${canonical.host} or an allowed host`)
    }
    // Already on the canonical origin (a framework's own URL, most requests): no second parse.
    if (url.host === canonical.host && url.protocol === canonical.protocol) return url
    return new URL(`${canonical.origin}${url.pathname}${url.search}`)
  }
  // Resolution refuses a configuration with neither a canonical origin nor trustHost.
  if (!trustHost) return new HostRefusal("The application's origin is unknown")
  const forwardedHost = firstValue(headers.get("x-forwarded-host"))
  const forwardedProto = firstValue(headers.get("x-forwarded-proto"))
  const host = forwardedHost ?? url.host
  if (!host || !HOST.test(host)) return new HostRefusal("Missing or malformed host", true)
  if (forwardedProto !== undefined && forwardedProto !== "http" && forwardedProto !== "https") {
    return new HostRefusal("Malformed X-Forwarded-Proto", true)
  }
  if (allowedHosts && !isAllowedHost(host, allowedHosts)) {
    return new HostRefusal(`Host ${host} is not in allowedHosts`)
  }
  if (forwardedHost === undefined && forwardedProto === undefined) return url
  try {
    const protocol = forwardedProto ?? url.protocol.slice(0, -1)
    return new URL(`${protocol}://${host}${url.pathname}${url.search}`)
  } catch {
    // The pattern lets through what only a full parse rejects, such as port 99999.
    return new HostRefusal("Missing or malformed host", true)
  }
}
