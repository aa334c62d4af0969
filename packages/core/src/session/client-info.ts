/**
 * What a session record says about the device that signed in: its
 * `User-Agent` (cut to 256 characters) and its network, as a prefix (IPv4 /24,
 * IPv6 /48) rather than an address: enough for a user to tell "my laptop at
 * home" from "somewhere else", without keeping where exactly they were.
 *
 * A `Request` carries no client address; behind a proxy the address is the one
 * the nearest proxy appended to `X-Forwarded-For` (the right-most entry, which
 * the client cannot choose). It is read only when the host is trusted
 * (`trustHost`), i.e. behind a proxy the app vouches for; it is shown to the
 * user, never used to decide anything.
 * @module
 */
import type { RequestContext } from "../context.js"

const MAX_USER_AGENT = 256

export function userAgentOf(ctx: Pick<RequestContext, "request">): string | null {
  const value = ctx.request.headers.get("user-agent")?.trim()
  return value ? value.slice(0, MAX_USER_AGENT) : null
}

export function ipPrefixOf(ctx: Pick<RequestContext, "request" | "config">): string | null {
  if (!ctx.config.trustHost) return null
  const forwarded = ctx.request.headers.get("x-forwarded-for")
  const last = forwarded?.split(",").pop()?.trim()
  return last ? ipPrefix(last) : null
}

/** `203.0.113.0/24` for `203.0.113.9`, `2001:db8:1::/48` for `2001:db8:1:2::3`; null when not an address. */
export function ipPrefix(address: string): string | null {
  const value = address.replace(/^\[|\](:\d+)?$/g, "")
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/i.exec(value)
  if (v4) {
    const octets = v4.slice(1).map(Number)
    if (octets.some((n) => n > 255)) return null
    return `${octets.slice(0, 3).join(".")}.0/24`
  }
  const groups = ipv6Groups(value)
  return groups ? `${groups.slice(0, 3).join(":")}::/48` : null
}

/** The eight groups of an IPv6 address (without zone), lower case, no leading zeros; null if it is not one. */
function ipv6Groups(value: string): string[] | null {
  const address = value.split("%")[0]!.toLowerCase()
  if (!/^[0-9a-f:]+$/.test(address) || address.split("::").length > 2) return null
  const [head, tail] = address.includes("::") ? address.split("::") : [address, undefined]
  const left = head ? head.split(":") : []
  const right = tail ? tail.split(":") : []
  const missing = 8 - left.length - right.length
  if (tail === undefined ? missing !== 0 : missing < 1) return null
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right]
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null
  return groups.map((g) => g.replace(/^0+(?=.)/, ""))
}
