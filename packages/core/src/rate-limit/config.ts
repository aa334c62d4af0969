/**
 * The `rateLimit` option of `Auth()`: which limits apply, where their counters
 * live, and how a request's IP address and a credentials sign-in's identifier
 * are found. Resolved once per configuration into a limiter on the chosen store
 * (by default the process-wide memory store, so a framework that builds a new
 * configuration object per request still counts in one place).
 *
 * The limits themselves are declared on the routes (`routes.ts`); this module
 * only says how much each allows.
 * @module
 */
import { InvalidConfiguration } from "../errors.js"
import { lazy } from "../flows/lazy.js"
import type { RateLimiter } from "./limiter.js"
import { isStoreTimeout } from "./bounded-store.js"
import { checkRule, type RateLimitRule } from "./rules.js"
import type { RateLimitStore } from "./store.js"

/**
 * The limits `Auth()` applies, by name. Each counts per identifier (an e-mail
 * address, a credentials identifier, a user) or, for the `...Ip` rules, per
 * client IP address (only when `ipHeader` names the header your proxy sets, or
 * `clientAddress` takes the address your framework integration reports).
 *
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#protect-against-automated-attacks
 */
export type RateLimitRuleName =
  | "credentials"
  | "credentialsIp"
  | "email"
  | "emailIp"
  | "emailCode"
  | "webauthnOptions"
  | "webauthnOptionsIp"
  | "twoFactor"

/**
 * The defaults. Failures are wrong passwords or codes (a success clears its
 * identifier's count); mails and option requests count every time.
 */
export const defaultRateLimitRules: Readonly<Record<RateLimitRuleName, RateLimitRule>> =
  Object.freeze({
    /** Failed credentials sign-ins per identifier: 10 per 15 minutes. */
    credentials: { max: 10, window: 15 * 60 },
    /** Failed credentials sign-ins per IP address: 100 per 15 minutes. */
    credentialsIp: { max: 100, window: 15 * 60 },
    /** Sign-in e-mails per mailbox (`Ada+x@` counts as `ada@`): 5 per hour. */
    email: { max: 5, window: 60 * 60 },
    /** Sign-in e-mails per IP address: 50 per hour. */
    emailIp: { max: 50, window: 60 * 60 },
    /** Wrong one-time e-mail codes per address: 10 per 15 minutes. */
    emailCode: { max: 10, window: 15 * 60 },
    /** Passkey option requests per e-mail address given: 10 per 15 minutes. */
    webauthnOptions: { max: 10, window: 15 * 60 },
    /** Passkey option requests per IP address: 60 per minute. */
    webauthnOptionsIp: { max: 60, window: 60 },
    /** Wrong second-factor codes per user: 5 per 15 minutes. */
    twoFactor: { max: 5, window: 15 * 60 },
  })

/**
 * The fields of a credentials sign-in that identify who is signing in, for the
 * `credentials` limit: a field's name, or a function of the submitted fields.
 *
 * @see {@link RateLimitConfig}
 */
export type CredentialsIdentifier =
  string | ((credentials: Record<string, unknown>, providerId: string) => string | null | undefined)

/**
 * The `rateLimit` option: every limit is on by default; set a rule to
 * `{ max, window }` to change it or `false` to turn it off, and `rateLimit:
 * false` to turn all of them off.
 *
 * @example
 * ```ts
 * import { SqlAdapter } from "@tessera/sql"
 * const adapter = SqlAdapter.postgres(process.env.DATABASE_URL)
 * Auth(request, {
 *   adapter,
 *   rateLimit: {
 *     store: adapter.rateLimitStore(), // shared by every process
 *     ipHeader: "x-forwarded-for", // only behind a proxy that sets it
 *     credentials: { max: 5, window: 600 },
 *     webauthnOptionsIp: false,
 *   },
 *   providers,
 * })
 * ```
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#account-lockout
 */
export type RateLimitConfig = {
  [Rule in RateLimitRuleName]?: RateLimitRule | false
} & {
  /**
   * Where counters live. Default: this process's memory, shared by every
   * configuration in the process. Use `SqlRateLimitStore` (`@tessera/sql`)
   * or `RedisRateLimitStore` (`@tessera/redis`) when several processes serve
   * the app.
   */
  store?: RateLimitStore
  /**
   * Milliseconds each call to `store` may take; default 5000 (longer
   * than `RedisRateLimitStore`'s own `timeout`, 1000). Past it the call fails, and so
   * does the request it served (`error=Configuration`, logged at error level),
   * as with any store that fails: an app's own store on a service that went
   * away must not hold every sign-in open. Not applied to the memory store.
   */
  storeTimeout?: number
  /**
   * The request header holding the client's IP address, set by a proxy you
   * run (`x-forwarded-for`, `x-real-ip`, `cf-connecting-ip`, `fly-client-ip`).
   * Without it no limit is keyed by IP address: any client can write any
   * header, so an untrusted one would let an attacker pick a fresh "address"
   * per request, or exhaust someone else's. From a list (`x-forwarded-for`),
   * the last address is used: the one your proxy added (see `ipHeaderDepth`
   * behind several proxies).
   */
  ipHeader?: string
  /**
   * How many proxies you run append to `ipHeader` (default 1): the client's
   * address is that many entries from the right, the one your outermost proxy
   * added; every entry left of it is the client's own to write. Behind a CDN
   * and then a load balancer that both append to `X-Forwarded-For`, 2: with 1
   * the address would be the CDN's, one count for every client, which any one
   * of them could use up. A header with fewer entries did not come through
   * all your proxies, so none of its entries is trusted and the request is not
   * counted per IP (`rate-limit-client-address-missing` is logged once).
   * As SvelteKit adapter-node's `XFF_DEPTH`. Tessera addition.
   */
  ipHeaderDepth?: number
  /**
   * Key the per-IP limits by the client address the framework integration
   * reports (`@tessera/sveltekit`: `event.getClientAddress()`;
   * `@tessera/express`: `req.ip`), or that you hand over yourself with
   * `withClientAddress(request, address)`. Off by default: behind a proxy that
   * address is the proxy's own unless the framework is told to trust it
   * (adapter-node's `ADDRESS_HEADER` and `XFF_DEPTH`, Express's `trust proxy`),
   * and one address for every client would let any one of them use up the
   * count for all. Not with `ipHeader` (one source of addresses). Tessera addition.
   */
  clientAddress?: boolean
  /**
   * Which submitted field identifies a credentials sign-in (`"email"`,
   * `"username"`), or a function returning the identifier. Default: the first
   * field the provider declares in `credentials` that is not a password, else
   * `email` or `username` when submitted. Compared trimmed and lower-cased.
   */
  credentialsIdentifier?: CredentialsIdentifier
  /** The clock, in milliseconds (default `Date.now`): tests move it instead of waiting. */
  now?: () => number
}

/** The limits of one configuration, ready for the route policies. */
export interface ResolvedRateLimits {
  /**
   * The limiter, made on first use: the limiter and the memory store load with
   * the first request a limit applies to, never with a session check.
   */
  readonly limiter: () => Promise<RateLimiter<RateLimitRuleName>>
  /** The rules that are on. */
  readonly rules: ReadonlySet<RateLimitRuleName>
  readonly ipHeader: string | undefined
  /** Which entry of `ipHeader` from the right is the client's (1: the last). */
  readonly ipHeaderDepth: number
  /** The integration's client address keys the per-IP limits. */
  readonly clientAddress: boolean
  readonly credentialsIdentifier: CredentialsIdentifier | undefined
  /** The limiter's clock (ms): when an attempt was counted, for `RateLimiter.undo`. */
  readonly now: () => number
}

const RULE_NAMES = Object.keys(defaultRateLimitRules) as RateLimitRuleName[]
const OPTIONS = new Set([
  "store",
  "storeTimeout",
  "ipHeader",
  "ipHeaderDepth",
  "clientAddress",
  "credentialsIdentifier",
  "now",
  ...RULE_NAMES,
])

/**
 * The codes a configuration accepts, whose strength is the limit on guessing
 * them: a 6-digit TOTP code (3 of its 10^6 values pass at any moment) or an
 * 8-digit e-mailed code (whose 5 attempts every new mail restores, earlier
 * codes staying valid). Turning their limit off is the app's call (issue 13:
 * `rateLimit: false` turns every limit off), so it is not refused, but warned
 * about (`rate-limit-codes-unguarded`).
 */
export interface CodeLimits {
  /** Second factors are on: guarded by `twoFactor`. */
  readonly twoFactor: boolean
  /** An e-mail provider mails one-time codes (`method: "code"` or `"both"`): guarded by `emailCode`. */
  readonly emailCode: boolean
}

/** Whether a limit that guards codes in use is off (see `CodeLimits`). */
export function codesUnguarded(limits: ResolvedRateLimits | undefined, codes: CodeLimits): boolean {
  return (["twoFactor", "emailCode"] as const).some(
    (name) => codes[name] && !limits?.rules.has(name),
  )
}

/** Checks `rateLimit` once; `undefined` when every limit is off (`rateLimit: false`). */
export function resolveRateLimits(
  option: RateLimitConfig | false | undefined,
  secrets: readonly string[],
): ResolvedRateLimits | undefined {
  if (option === false) return undefined
  if (option !== undefined && (option === null || typeof option !== "object")) {
    throw new InvalidConfiguration("rateLimit must be an object or false")
  }
  const given = option ?? {}
  const unknown = Object.keys(given).filter((key) => !OPTIONS.has(key))
  if (unknown.length) {
    throw new InvalidConfiguration(
      `rateLimit: unknown option ${unknown.join(", ")} (rules: ${RULE_NAMES.join(", ")})`,
    )
  }
  const rules: Partial<Record<RateLimitRuleName, RateLimitRule>> = {}
  for (const name of RULE_NAMES) {
    const rule = given[name]
    if (rule === false) continue
    rules[name] = rule === undefined ? defaultRateLimitRules[name] : rule
  }
  const {
    store,
    storeTimeout,
    ipHeader,
    ipHeaderDepth,
    clientAddress,
    credentialsIdentifier,
    now,
  } = given
  if (store !== undefined && !isStore(store)) {
    throw new InvalidConfiguration("rateLimit.store must have increment, get and delete methods")
  }
  if (storeTimeout !== undefined && !isStoreTimeout(storeTimeout)) {
    throw new InvalidConfiguration(
      "rateLimit.storeTimeout must be a positive number of milliseconds (at most 2^31 - 1)",
    )
  }
  if (
    ipHeader !== undefined &&
    (typeof ipHeader !== "string" || !/^[!#-'*+.0-9A-Z^-z|~-]+$/.test(ipHeader))
  ) {
    throw new InvalidConfiguration("rateLimit.ipHeader must be a header name")
  }
  checkClientAddressSource(ipHeader, ipHeaderDepth, clientAddress)
  if (
    credentialsIdentifier !== undefined &&
    typeof credentialsIdentifier !== "string" &&
    typeof credentialsIdentifier !== "function"
  ) {
    throw new InvalidConfiguration(
      "rateLimit.credentialsIdentifier must be a field name or a function",
    )
  }
  if (now !== undefined && typeof now !== "function") {
    throw new InvalidConfiguration("rateLimit.now must be a function")
  }
  if (Object.keys(rules).length === 0) return undefined
  if (!secrets[0])
    throw new InvalidConfiguration("rateLimit: createRateLimiter: a secret is required")
  for (const [name, rule] of Object.entries(rules)) {
    try {
      checkRule(name, rule)
    } catch (error) {
      throw new InvalidConfiguration(`rateLimit: ${(error as Error).message}`)
    }
  }
  // Read per call, so fake timers installed after start are seen.
  const clock = now ?? (() => Date.now())
  return {
    limiter: lazy(async () => {
      const { createRateLimiter } = await import("./limiter.js")
      return createRateLimiter({
        secret: secrets,
        rules: rules as Record<RateLimitRuleName, RateLimitRule>,
        // Default: the process-wide memory store (the limiter's default).
        store,
        storeTimeout,
        now: clock,
      })
    }),
    rules: new Set(Object.keys(rules) as RateLimitRuleName[]),
    ipHeader: ipHeader?.toLowerCase(),
    ipHeaderDepth: ipHeaderDepth ?? 1,
    clientAddress: clientAddress === true,
    credentialsIdentifier,
    now: clock,
  }
}

/** More proxies than any real chain: a depth past it is a mistake. */
const MAX_IP_HEADER_DEPTH = 100

/** `ipHeaderDepth` and `clientAddress`: each only where it means something. */
function checkClientAddressSource(
  ipHeader: string | undefined,
  depth: unknown,
  clientAddress: unknown,
): void {
  if (depth !== undefined) {
    if (ipHeader === undefined)
      throw new InvalidConfiguration(
        "rateLimit.ipHeaderDepth counts entries of rateLimit.ipHeader: set ipHeader too",
      )
    if (
      !Number.isInteger(depth) ||
      (depth as number) < 1 ||
      (depth as number) > MAX_IP_HEADER_DEPTH
    )
      throw new InvalidConfiguration(
        `rateLimit.ipHeaderDepth must be a whole number of proxies from 1 to ${MAX_IP_HEADER_DEPTH}`,
      )
  }
  if (clientAddress !== undefined && typeof clientAddress !== "boolean")
    throw new InvalidConfiguration("rateLimit.clientAddress must be true or false")
  if (clientAddress === true && ipHeader !== undefined)
    throw new InvalidConfiguration(
      "rateLimit.clientAddress and rateLimit.ipHeader are two sources of the client's address: set one",
    )
}

/**
 * Whether limits are on with an app's own store that has no `compareAndDelete` (one written
 * before it): a success then clears its counters in two steps, and a guess counted between
 * them is lost (`rate-limit-store-not-atomic`).
 */
export function clearsInTwoSteps(
  option: RateLimitConfig | false | undefined,
  limits: ResolvedRateLimits | undefined,
): boolean {
  const store = option ? option.store : undefined
  return !!limits && !!store && typeof store.compareAndDelete !== "function"
}

function isStore(value: unknown): value is RateLimitStore {
  const store = value as Partial<RateLimitStore> | null
  return (
    !!store &&
    typeof store.increment === "function" &&
    typeof store.get === "function" &&
    typeof store.delete === "function"
  )
}
