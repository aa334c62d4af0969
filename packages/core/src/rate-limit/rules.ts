/**
 * A rate-limit rule and its check, apart from the limiter: resolving a
 * configuration checks the `rateLimit` option's rules at start, while the
 * limiter itself loads on the first request a limit applies to.
 * @module
 */

/**
 * At most `max` hits per `window` seconds (sliding).
 *
 * @see [OWASP Authentication Cheat Sheet: protect against automated attacks](https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#protect-against-automated-attacks)
 */
export interface RateLimitRule {
  /** Hits allowed within any `window` seconds; a positive integer. */
  max: number
  /** The window, in whole seconds (at least 1). */
  window: number
}

const RULE_NAME = /^[A-Za-z0-9_.-]{1,64}$/

/** Throws a `TypeError` for a rule name or rule the limiter cannot use. */
export function checkRule(name: string, rule: RateLimitRule | undefined): void {
  const ok =
    RULE_NAME.test(name) &&
    rule !== undefined &&
    Number.isInteger(rule.max) &&
    rule.max >= 1 &&
    Number.isInteger(rule.window) &&
    rule.window >= 1
  if (!ok)
    throw new TypeError(
      `Rate limit rule "${name}": needs a name of [A-Za-z0-9_.-] and { max, window } as positive integers`,
    )
}
