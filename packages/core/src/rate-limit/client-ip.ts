/**
 * The client's IP address, as a rate-limit subject: from the one header the
 * app said its proxies set (the entry its outermost trusted proxy appended),
 * or from the peer address a framework integration handed over with the
 * request (`http/client-address.ts`), and from nothing else: the socket's
 * address is not visible to a `Request` handler, and any other header, or any
 * entry a trusted proxy did not write, is the client's to write. IPv6
 * addresses are keyed by their /64 prefix, since one host usually holds a
 * whole /64 and could otherwise rotate through it.
 * @module
 */

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/

/**
 * The subject for an address taken from `header`'s value: the `depth`th entry
 * from the right of a list (1, the default: the last entry, the one the nearest
 * proxy added; 2 behind a CDN and a load balancer that both append), or
 * `undefined` when that entry holds no address. A value with fewer than
 * `depth` entries did not come through the whole chain of proxies: every entry
 * in it is the sender's own, so none is trusted (not even the leftmost, which
 * would let a sender use up the count of any address it names).
 */
export function clientIpSubject(value: string | null, depth = 1): string | undefined {
  if (!value) return undefined
  const entries = value.split(",")
  if (entries.length < depth) return undefined
  return addressSubject(entries[entries.length - depth]!)
}

/** The subject for one address as written (`1.2.3.4`, `1.2.3.4:567`, `[::1]:80`, `::1`). */
export function addressSubject(address: string): string | undefined {
  return normalizeIp(stripPort(address.trim()))
}

/** `1.2.3.4:567` -> `1.2.3.4`, `[::1]:80` -> `::1`; a bare IPv6 address is left alone. */
function stripPort(value: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value)
  if (bracketed) return bracketed[1]!
  const v4WithPort = /^([\d.]+):\d+$/.exec(value)
  return v4WithPort ? v4WithPort[1]! : value
}

function normalizeIp(value: string): string | undefined {
  if (IPV4.test(value)) return value
  // IPv6 (and IPv4-mapped IPv6): the URL parser validates and compresses it.
  if (!/^[0-9a-f:.]+$/i.test(value) || !value.includes(":")) return undefined
  let host: string
  try {
    host = new URL(`http://[${value}]/`).hostname.slice(1, -1)
  } catch {
    return undefined
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host)
  if (mapped) {
    const high = parseInt(mapped[1]!, 16)
    const low = parseInt(mapped[2]!, 16)
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
  }
  return `${expand(host).slice(0, 4).join(":")}::/64`
}

/** The eight 16-bit groups of a compressed IPv6 address, as the URL parser writes it. */
function expand(host: string): string[] {
  const [head, tail] = host.split("::") as [string, string | undefined]
  const left = head ? head.split(":") : []
  const right = tail ? tail.split(":") : []
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0")
  return [...left, ...zeros, ...right]
}
