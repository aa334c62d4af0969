/**
 * Identifiers and tokens from outside (a provider's account id, a logout token's `sid`, the
 * tokens of a token response) hold no control characters: none of their grammars allow one
 * (RFC 6749 Appendix A: VSCHAR and NQCHAR; OpenID's `sub` and `sid` are printable), and
 * U+0000 is what PostgreSQL text refuses outright ("invalid byte sequence"), which would turn
 * such a value into a database error, a 500 and an error log.
 * @module
 */

/** C0 controls (U+0000 to U+001F) and DEL. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/

/** Whether `value` is a string holding a control character. */
export function hasControlCharacter(value: unknown): boolean {
  return typeof value === "string" && CONTROL_CHARACTER.test(value)
}

/** Fields of a token response whose grammar has no control character (RFC 6749 Appendix A). */
const TOKEN_FIELDS = ["access_token", "refresh_token", "id_token", "token_type", "scope"] as const

/**
 * The first field of `tokens` that cannot be what the provider meant: a token field with a
 * control character, or (`stored`: what an account stores) any text with U+0000, which
 * PostgreSQL text refuses.
 */
export function malformedTokenField(
  tokens: Record<string, unknown>,
  stored = true,
): string | undefined {
  for (const field of TOKEN_FIELDS) if (hasControlCharacter(tokens[field])) return field
  if (stored)
    for (const [field, value] of Object.entries(tokens))
      if (typeof value === "string" && value.includes("\0")) return field
  return undefined
}
