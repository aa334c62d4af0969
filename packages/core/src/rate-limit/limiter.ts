/**
 * Rate limits by rule and subject ("5 sign-in failures per e-mail address per
 * 15 minutes"), as the routes will apply them: `check` before the work,
 * `hit` to count an attempt, `reset` after a success.
 *
 * - Sliding window, estimated from two fixed-window counters: the current
 *   window's count plus the previous window's, weighted by how much of it is
 *   still inside the sliding window. Two reads and one atomic increment per
 *   hit, with no burst at window boundaries (a fixed window lets 2·max through
 *   around each boundary).
 * - Keys are `<rule>:<HMAC-SHA-256(secret, subject)>:<window index>`: the store
 *   never holds an e-mail address or IP address, only a keyed hash of it, and
 *   each window is a new key, so stores need no clock.
 * - The clock is injected (`now`), so the logic is tested without waiting.
 * - `succeeded` keeps two more counters per window, the only keys a success
 *   creates: `<rule>:ok:<HMAC>:<index>` (successes, taken off the hits; `undo`
 *   counts there too) and
 *   `<rule>:reset:<HMAC>:<index>` (whether a success cleared the window yet).
 * - `failed` counts failures per exact spelling of a loosely compared subject,
 *   `<rule>:as:<HMAC of subject and spelling>:<index>`, so a success clears
 *   only failures that were all made under its own spelling.
 *
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#protect-against-automated-attacks
 * @see https://pages.nist.gov/800-63-3/sp800-63b.html#throttle (NIST SP 800-63B 5.2.2, rate limiting)
 * @module
 */
import { hmacHex, importHmacKey } from "../lib/crypto.js"
import { boundedStore, DEFAULT_STORE_TIMEOUT_MS, isStoreTimeout } from "./bounded-store.js"
import { defaultRateLimitStore, MemoryRateLimitStore } from "./memory-store.js"
import { checkRule, type RateLimitRule } from "./rules.js"
import type { RateLimitStore } from "./store.js"

export type { RateLimitRule } from "./rules.js"

/**
 * The answer of `check` and `hit`.
 *
 * @see [RFC 6585 §4, 429 Too Many Requests](https://www.rfc-editor.org/rfc/rfc6585.html#section-4) (`Retry-After`)
 */
export interface RateLimitResult {
  /**
   * From `hit`: this hit went over the limit; refuse what it counted.
   * From `check`: a hit now would go over the limit; refuse before doing the work.
   */
  limited: boolean
  /** How many more hits the rule allows right now (after this one, for `hit`). */
  remaining: number
  /**
   * Seconds (whole, rounded up) until at least one more hit is allowed, if no
   * other hits come meanwhile; 0 when `remaining` is positive. Fit for a
   * `Retry-After` header.
   */
  retryAfter: number
}

/**
 * Options of {@link createRateLimiter}.
 *
 * @see [OWASP Authentication Cheat Sheet: protect against automated attacks](https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#protect-against-automated-attacks)
 */
export interface RateLimiterOptions<Rule extends string> {
  /**
   * Keys the HMAC that hides subjects. With several (rotation), the first is
   * used: counters start afresh when it changes, which only ever relaxes limits
   * for one window.
   */
  secret: string | readonly string[]
  /** The rules, by name (`[A-Za-z0-9_.-]`, up to 64 characters). */
  rules: Record<Rule, RateLimitRule>
  /** Where counts live; default {@link defaultRateLimitStore}, this process's memory. */
  store?: RateLimitStore
  /**
   * Milliseconds each call to `store` may take (default 5000). Past it the
   * call fails with a `TimeoutError`, as a store that fails: a store on a
   * service that went away must not hold sign-ins open. Not applied to a
   * `MemoryRateLimitStore`, which answers at once.
   */
  storeTimeout?: number
  /** The clock, in milliseconds since the epoch; default `Date.now`. */
  now?: () => number
}

/**
 * Rate limits over a store; made once, used by every request.
 *
 * @see [OWASP Authentication Cheat Sheet: protect against automated attacks](https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#protect-against-automated-attacks)
 */
export interface RateLimiter<Rule extends string = string> {
  /**
   * Whether one more hit would be allowed, without counting one. Call it
   * before checking a password: a locked-out subject is refused even when the
   * password is right, so guessing on through a lock-out learns nothing.
   *
   * @param rule a rule's name
   * @param subject what is limited: an e-mail address (normalised by the
   *   caller), an IP address or prefix, a user id
   */
  check(rule: Rule, subject: string): Promise<RateLimitResult>
  /** Counts one hit (an attempt, a failure, a mail sent) and says whether it went over. */
  hit(rule: Rule, subject: string): Promise<RateLimitResult>
  /**
   * Forgets the subject's hits under `rule` (after a successful sign-in, say), and the
   * hits taken back (`undo`). It reads them, then deletes them only if none was counted
   * since (the store's `compareAndDelete`): a hit counted meanwhile (another attempt racing
   * the success) makes it forget nothing, so that attempt stays counted. Take the success's
   * own hit back with `undo` first, or it stays counted too. A store without
   * `compareAndDelete` deletes them whatever was counted meanwhile. It does not know the
   * spellings `failed` counted under, so it leaves those counts: a rule counted with
   * spellings is cleared with `succeeded` and the same spelling, not with `reset`.
   */
  reset(rule: Rule, subject: string): Promise<void>
  /**
   * Records that an attempt `hit` counted succeeded: takes that hit back, and
   * the first success of a window also forgets the subject's earlier hits
   * (as `reset`: only if none was counted since it read them), later ones only
   * their own. For subjects several accounts can share (an identifier compared
   * loosely, where `Ada` and `adá` may be two users): with `reset`, one
   * account's successes could keep clearing the failures counted against the
   * other, and its lockout would never engage.
   *
   * @param rule a rule's name
   * @param subject what is limited, as given to `hit`
   */
  succeeded(rule: Rule, subject: string): Promise<void>
  /**
   * With a `spelling`: the subject is compared loosely and `spelling` is the
   * value exactly as sent (`adá` where the subject is `ada`). The success
   * takes back its own hit, and clears the subject's hits only when every
   * failure counted in this window and the last was recorded (`failed`) under
   * this same spelling: a look-alike account's successes never clear the
   * failures counted against another.
   *
   * @param rule a rule's name
   * @param subject what is limited, as given to `hit`
   * @param spelling the identifier exactly as the client sent it
   */
  succeeded(rule: Rule, subject: string, spelling: string): Promise<void>
  /**
   * Takes back one hit that `hit` counted (an attempt that turned out fine),
   * and nothing else: for subjects several people share (an IP address), where
   * one person's success must not clear another's failures. Counting every
   * attempt with `hit` before it runs and taking successes back after is what
   * keeps a burst of concurrent attempts within `max`.
   *
   * @param rule a rule's name
   * @param subject what is limited, as given to `hit`
   * @param hitAt when the hit was counted (ms, on the limiter's clock; default now):
   *   an attempt that started in the previous window is taken back from that window,
   *   so a success finishing after a window boundary frees no failure of the new one
   */
  undo(rule: Rule, subject: string, hitAt?: number): Promise<void>
  /**
   * Records that an attempt `hit` counted failed, under the exact `spelling`
   * it was made with (see `succeeded`). It does not count again: `hit` did.
   *
   * @param rule a rule's name
   * @param subject what is limited, as given to `hit`
   * @param spelling the identifier exactly as the client sent it
   */
  failed(rule: Rule, subject: string, spelling: string): Promise<void>
}

/** Slack for floating-point noise in the weighted estimate (5 − 4.0000000001 is not "less than 1 left"). */
const EPSILON = 1e-9

/**
 * Time (ms, from `elapsed` ms into the current window of `length` ms) until
 * `previous·(1 − f) + current + 1 ≤ max`, f being the fraction of the window
 * gone, assuming no more hits. The previous window's weight falls as f grows;
 * if the current count alone leaves no room, the wait runs into the next
 * window, where the current count becomes the weighted one.
 */
function wait(
  previous: number,
  current: number,
  max: number,
  elapsed: number,
  length: number,
): number {
  const fraction = elapsed / length
  if (current + 1 <= max) {
    if (previous === 0) return 0
    const needed = 1 - (max - 1 - current) / previous
    return Math.max(0, (needed - fraction) * length)
  }
  return (1 - fraction) * length + (1 - (max - 1) / current) * length
}

/**
 * Makes a rate limiter over `store` (by default the process-wide memory store).
 *
 * @param options the secret, the rules, and optionally the store and clock.
 * @returns `check`, `hit` and `reset`, each taking a rule's name and a subject.
 * @throws `TypeError` for a rule that is not `{ max, window }` with positive
 *   integers, a `storeTimeout` that is not a positive number of milliseconds,
 *   or an unknown rule name passed to a method.
 *
 * @example
 * ```ts
 * import { createRateLimiter } from "@tessera/core/rate-limit"
 *
 * const limiter = createRateLimiter({
 *   secret: process.env.AUTH_SECRET!,
 *   rules: { "signin-email": { max: 5, window: 15 * 60 }, "signin-ip": { max: 50, window: 60 } },
 * })
 *
 * const email = input.email.trim().toLowerCase()
 * if ((await limiter.check("signin-email", email)).limited) return tooManyAttempts()
 * // Counted before the (slow) check: concurrent guesses cannot all pass `check` first.
 * if ((await limiter.hit("signin-email", email)).limited) return tooManyAttempts()
 * if (await passwordMatches(email, input.password)) {
 *   await limiter.undo("signin-email", email) // this attempt's own hit
 *   await limiter.reset("signin-email", email)
 *   return signedIn()
 * }
 * ```
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#account-lockout
 */
export function createRateLimiter<Rule extends string>(
  options: RateLimiterOptions<Rule>,
): RateLimiter<Rule> {
  const secret = typeof options.secret === "string" ? options.secret : options.secret[0]
  if (!secret) throw new TypeError("createRateLimiter: a secret is required")
  const rules = new Map<string, RateLimitRule>()
  for (const [name, rule] of Object.entries<RateLimitRule>(options.rules)) {
    checkRule(name, rule)
    rules.set(name, { max: rule.max, window: rule.window })
  }
  const timeout = options.storeTimeout ?? DEFAULT_STORE_TIMEOUT_MS
  if (!isStoreTimeout(timeout))
    throw new TypeError("createRateLimiter: storeTimeout must be a positive number of milliseconds")
  const given = options.store ?? defaultRateLimitStore()
  const store = given instanceof MemoryRateLimitStore ? given : boundedStore(given, timeout)
  const now = options.now ?? Date.now
  // Imported on first use and kept by this limiter.
  let key: Promise<CryptoKey> | undefined

  /** The rule, the window's index and position, and the two keys to read. */
  async function locate(name: string, subject: string, time = now()) {
    const rule = rules.get(name)
    if (!rule) throw new TypeError(`Rate limit rule "${name}" is not defined`)
    const length = rule.window * 1000
    const index = Math.floor(time / length)
    // A label in the MAC's input keeps these values apart from the other MACs
    // made with the same secret (CSRF tokens, verification tokens).
    const id = await hmacHex((key ??= importHmacKey(secret!)), `tessera.rate-limit:${subject}`)
    return {
      rule,
      length,
      index,
      elapsed: time - index * length,
      current: `${name}:${id}:${index}`,
      previous: `${name}:${id}:${index - 1}`,
      // Rule names have no ":", so these never equal a counter's key.
      currentOk: `${name}:ok:${id}:${index}`,
      previousOk: `${name}:ok:${id}:${index - 1}`,
      marker: `${name}:reset:${id}:${index}`,
    }
  }

  /** The keys of the failures recorded under one exact spelling of `subject` (see `failed`). */
  async function spelled(name: string, subject: string, spelling: string) {
    const at = await locate(name, subject)
    // JSON keeps ("a:b", "c") and ("a", "b:c") apart in the MAC's input.
    const input = `tessera.rate-limit.spelling:${JSON.stringify([subject, spelling])}`
    const id = await hmacHex((key ??= importHmacKey(secret!)), input)
    const { index } = at
    return { at, current: `${name}:as:${id}:${index}`, previous: `${name}:as:${id}:${index - 1}` }
  }

  function result(
    rule: RateLimitRule,
    previous: number,
    current: number,
    elapsed: number,
    length: number,
    limited: boolean,
  ): RateLimitResult {
    const estimate = previous * (1 - elapsed / length) + current
    const remaining = Math.max(0, Math.floor(rule.max - estimate + EPSILON))
    const retryAfter =
      remaining > 0
        ? 0
        : Math.max(1, Math.ceil(wait(previous, current, rule.max, elapsed, length) / 1000))
    return { limited, remaining, retryAfter }
  }

  /** Hits minus the successes taken back, never below 0 (a success settled in the next window). */
  const net = (hits: number, successes: number) => Math.max(0, hits - successes)

  type Located = Awaited<ReturnType<typeof locate>>
  /** The previous window's net count and the current window's successes. */
  async function taken(at: Located): Promise<[number, number]> {
    const [before, beforeOk, currentOk] = await Promise.all([
      store.get(at.previous),
      store.get(at.previousOk),
      store.get(at.currentOk),
    ])
    return [net(before, beforeOk), currentOk]
  }

  /** `succeeded` with a spelling: clears only when all the failures counted were this spelling's. */
  async function succeededAs(name: string, subject: string, spelling: string) {
    const as = await spelled(name, subject, spelling)
    const { at } = as
    await store.increment(at.currentOk, 2 * at.rule.window + 1)
    const [hits, ok, before, beforeOk, mine, mineBefore] = await Promise.all(
      [at.current, at.currentOk, at.previous, at.previousOk, as.current, as.previous].map((k) =>
        store.get(k),
      ),
    )
    // Counted failures the spelling did not make: someone else's guesses, kept.
    if (net(hits!, ok!) > mine! || net(before!, beforeOk!) > mineBefore!) return
    if (store.compareAndDelete) {
      // Only as read: a guess counted since (another attempt racing this sign-in)
      // makes it delete nothing, so the guess, and the failures before it, stay.
      await store.compareAndDelete({
        [at.current]: hits!,
        [at.currentOk]: ok!,
        [at.previous]: before!,
        [at.previousOk]: beforeOk!,
        [as.current]: mine!,
        [as.previous]: mineBefore!,
      })
      return
    }
    // A store without it (written before it): a guess counted since the read goes too.
    const keys = [at.current, at.previous, at.currentOk, at.previousOk, as.current, as.previous]
    await Promise.all(keys.map((k) => store.delete(k)))
  }

  /** `reset`: the subject's hits and successes taken back, cleared only as read. */
  async function clear(name: string, subject: string) {
    const at = await locate(name, subject)
    // The successes taken back go with the hits: left behind, they would take later hits back.
    const keys = [at.current, at.previous, at.currentOk, at.previousOk]
    if (store.compareAndDelete) {
      // Only as read: a hit counted since (an attacker's guess racing the success that
      // resets) makes it delete nothing, so the guess stays counted.
      const counts = await Promise.all(keys.map((k) => store.get(k)))
      await store.compareAndDelete(Object.fromEntries(keys.map((k, i) => [k, counts[i]!])))
      return
    }
    // A store without it (written before it): a hit counted meanwhile goes too.
    await Promise.all(keys.map((k) => store.delete(k)))
  }

  return {
    async check(name, subject) {
      const at = await locate(name, subject)
      const { rule, length, elapsed } = at
      const [[before, ok], hits] = await Promise.all([taken(at), store.get(at.current)])
      const count = net(hits, ok)
      const estimate = before * (1 - elapsed / length) + count
      return result(rule, before, count, elapsed, length, estimate + 1 > rule.max + EPSILON)
    },
    async hit(name, subject) {
      const at = await locate(name, subject)
      const { rule, length, elapsed } = at
      // Each counter must outlive its window and the next, where it is the
      // previous one; +1 s for clocks that disagree on the boundary.
      const [[before, ok], hits] = await Promise.all([
        taken(at),
        store.increment(at.current, 2 * rule.window + 1),
      ])
      const count = net(hits, ok)
      const estimate = before * (1 - elapsed / length) + count
      return result(rule, before, count, elapsed, length, estimate > rule.max + EPSILON)
    },
    reset: clear,
    async undo(name, subject, hitAt) {
      const at = await locate(name, subject, hitAt)
      // The hit's own window: `currentOk` of the time it was counted. One older than the
      // previous window no longer counts at all.
      if (at.index < Math.floor(now() / at.length) - 1) return
      await store.increment(at.currentOk, 2 * at.rule.window + 1)
    },
    async failed(name, subject, spelling) {
      const as = await spelled(name, subject, spelling)
      await store.increment(as.current, 2 * as.at.rule.window + 1)
    },
    async succeeded(name, subject, spelling?: string) {
      if (spelling !== undefined) return succeededAs(name, subject, spelling)
      const at = await locate(name, subject)
      const ttl = 2 * at.rule.window + 1
      // Atomic in every store: of concurrent successes in one window, exactly one sees 1.
      const first = (await store.increment(at.marker, ttl)) === 1
      await store.increment(at.currentOk, ttl)
      // The first also clears, as `reset` does: its own hit taken back first, then only as
      // read, so a guess counted meanwhile is not deleted with the rest (it was, blindly).
      if (first) await clear(name, subject)
    },
  }
}
