/**
 * E-mail addresses as sign-in identifiers: trimmed, lower-cased, and accepted
 * only in the plain `local@domain` form.
 *
 * The address ends up in a mail library's `to` field, and mail libraries parse
 * that field as an address *list*: `a@x.com, b@y.com`, `"b@y.com"@x.com` or
 * `a@x.com <b@y.com>` can each send the sign-in link somewhere the user never
 * typed. So everything beyond RFC 5321's unquoted dot-atom is refused: quoted
 * local parts, comments, display names, separators, more than one `@`, spaces,
 * control characters, IP-literal domains and non-ASCII local parts.
 * @module
 */

/** One address, as RFC 5321 limits it (the forward path holds 256 octets, 254 usable). */
const MAX_ADDRESS = 254
const MAX_LOCAL = 64

/** RFC 5322 `atext`: the characters of an unquoted local part, dots separating runs of them. */
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/

/** A DNS label (LDH rule): letters, digits and inner hyphens, 1 to 63 long. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/

/** Thrown for an address that is not accepted; the message is safe to log (it never quotes the input). */
export class InvalidEmailAddress extends Error {
  override name = "InvalidEmailAddress"
}

/**
 * The domain in ASCII form. International domains are converted to punycode
 * with the WHATWG URL parser (available on every runtime), then checked like
 * any other: the parser's leniency (percent-decoding, numeric hosts) cannot let
 * anything through that the label rule would refuse.
 */
function asciiDomain(domain: string): string {
  if (/^[\x21-\x7e]*$/.test(domain)) return domain
  // Only label characters may surround the non-ASCII ones: the URL parser would
  // otherwise quietly drop a `/path` or `?query` tail and change the address.
  if (!/^(?:[a-z0-9.-]|[^\x00-\x7f])+$/.test(domain))
    throw new InvalidEmailAddress("The domain is not a valid host name")
  let host: string
  try {
    host = new URL(`http://${domain}/`).hostname
  } catch {
    throw new InvalidEmailAddress("The domain is not a valid host name")
  }
  return host
}

function checkDomain(domain: string): void {
  if (domain.length === 0 || domain.length > 253)
    throw new InvalidEmailAddress("The domain is empty or too long")
  const labels = domain.split(".")
  if (labels.length < 2) throw new InvalidEmailAddress("The domain needs at least one dot")
  if (!labels.every((label) => LABEL.test(label)))
    throw new InvalidEmailAddress("The domain is not a valid host name")
  // A numeric top-level label would make `1.2.3.4` a "domain": IP addresses are not accepted.
  if (/^[0-9]+$/.test(labels[labels.length - 1]!))
    throw new InvalidEmailAddress("The domain is not a valid host name")
}

/**
 * The address trimmed and lower-cased, or an `InvalidEmailAddress` error.
 *
 * @example
 * ```ts
 * normalizeEmailAddress("  Ada@Example.COM ") // "ada@example.com"
 * normalizeEmailAddress('"a@evil.test"@example.com') // throws
 * ```
 */
export function normalizeEmailAddress(input: unknown): string {
  if (typeof input !== "string")
    throw new InvalidEmailAddress("The e-mail address must be a string")
  const trimmed = input.trim()
  // Only ASCII is folded: Unicode case mapping turns some characters into ASCII
  // letters (the Kelvin sign U+212A becomes "k"), which would make two different
  // mailboxes one address. Non-ASCII local parts are refused below, before folding.
  const at0 = trimmed.indexOf("@")
  if (at0 > 0 && /[^\x00-\x7f]/.test(trimmed.slice(0, at0))) {
    throw new InvalidEmailAddress("The local part may only hold ASCII characters")
  }
  const value = trimmed.toLowerCase()
  if (value.length === 0) throw new InvalidEmailAddress("The e-mail address is empty")
  if (value.length > MAX_ADDRESS * 4)
    throw new InvalidEmailAddress("The e-mail address is too long")
  // C0 and C1 controls, DEL, and Unicode line/paragraph separators: header injection material.
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(value)) {
    throw new InvalidEmailAddress("The e-mail address contains control characters")
  }
  const at = value.indexOf("@")
  if (at === -1) throw new InvalidEmailAddress("The e-mail address has no @")
  if (value.indexOf("@", at + 1) !== -1)
    throw new InvalidEmailAddress("The e-mail address has more than one @")
  const local = value.slice(0, at)
  if (local.length === 0 || local.length > MAX_LOCAL)
    throw new InvalidEmailAddress("The local part is empty or too long")
  if (!LOCAL_PART.test(local)) {
    throw new InvalidEmailAddress(
      "The local part may only hold letters, digits, dots and !#$%&'*+/=?^_`{|}~- (no quotes or spaces)",
    )
  }
  const domain = asciiDomain(value.slice(at + 1))
  checkDomain(domain)
  const address = `${local}@${domain}`
  if (address.length > MAX_ADDRESS) throw new InvalidEmailAddress("The e-mail address is too long")
  return address
}

/**
 * A user's address as Tessera stores it: normalized exactly like an e-mail
 * sign-in address, or `null` when e-mail sign-in would refuse it. Used for the
 * addresses others hand in (a provider's profile, `authorize`'s user), so an
 * address is only ever stored in the one form an e-mail sign-in for it
 * matches. Never folded any further: a look-alike such as `\u212Aevin@` (Kelvin
 * sign), which `toLowerCase()` would turn into `kevin@`, is another mailbox and
 * becomes no address at all rather than someone else's.
 */
export function storedEmailAddress(value: unknown): string | null {
  try {
    return normalizeEmailAddress(value)
  } catch {
    return null
  }
}
