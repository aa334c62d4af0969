/**
 * Rate limits as route policies: each names a rule of the `rateLimit` option,
 * says what a request is counted under (its subject), and what counts. The
 * route table (`routes.ts`) lists them per endpoint; the handler applies them
 * before the endpoint's handler runs (`enforceRateLimits`) and reports the
 * outcome after (`RateLimitTicket.settle`), so no flow checks a limit itself.
 *
 * Subjects are identifiers the attacker names (an e-mail address, a username,
 * a user id) or, when the app trusts a proxy header, the client's IP address.
 * The limiter keys them by HMAC, so stores never hold an address. A subject is
 * counted the same whether or not an account exists behind it: a limit never
 * tells which addresses have accounts.
 * @module
 */
import type { RequestContext } from "../context.js"
import { InvalidRequest, RateLimited } from "../errors.js"
import { normalizeEmailAddress } from "../flows/email/address.js"
import { RequestError } from "../http/request.js"
import type { ResolvedCredentialsProvider, ResolvedEmailProvider } from "../flows/types.js"
import { sessionStrategy } from "../session/index.js"
import { readPending } from "../two-factor/pending.js"
import type { ResponseInternal } from "../types.js"
import { clientAddressOf } from "../http/client-address.js"
import { asError } from "../lib/as-error.js"
import { addressSubject, clientIpSubject } from "./client-ip.js"
import type { RateLimitRuleName, ResolvedRateLimits } from "./config.js"

/**
 * What a rule counts:
 * - `requests`: every request that gets through (mails sent, options issued);
 * - `failures`: every attempt, counted before it runs (so concurrent guesses
 *   cannot all slip in before the count), and cleared when the attempt
 *   succeeds: for subjects only their owner can succeed for (an identifier,
 *   a user), so a correct password resets its own lockout and nothing else;
 * - `attempts`: every attempt, counted before it runs (a burst of concurrent
 *   attempts gets `max`, not one each), a success taking back only its own
 *   count: for shared subjects (an IP address), where one person's success
 *   must not wipe out another's failures. Failures alone are what stays counted.
 */
export type RateLimitCount = "requests" | "failures" | "attempts"

/** One rate limit on an endpoint. */
export interface RateLimitPolicy {
  readonly rule: RateLimitRuleName
  readonly counts: RateLimitCount
  /** What this request is counted under, or `undefined` when the rule does not apply to it. */
  subject(
    ctx: RequestContext,
    limits: ResolvedRateLimits,
  ): string | undefined | Promise<string | undefined>
  /**
   * For `failures` whose subject several accounts can share (an identifier
   * folded more loosely than the app's database compares it): the value
   * exactly as sent. Failures are also recorded under it, and a success clears
   * the count only when all of them were its own spelling's; otherwise it
   * takes back its own hit only (`RateLimiter.succeeded` with a spelling).
   */
  spelling?(ctx: RequestContext, limits: ResolvedRateLimits): string | undefined
}

/** Fields Tessera adds to forms: never an identifier. */
const RESERVED = new Set(["csrfToken", "callbackUrl", "redirectTo", "redirect", "json"])

/** Accents and other combining marks, and characters a collation ignores (zero-width, soft hyphen). */
const IGNORED = /[\p{M}\p{Default_Ignorable_Code_Point}]/gu

/**
 * An identifier as the loosest common database collation compares it (case-,
 * accent- and width-insensitive, ignorable characters ignored, trailing spaces
 * dropped), so `Ada`, ` ada`, `ＡＤＡ`, `adá` and `a<ZWSP>da` share one count:
 * `authorize` looking the name up in such a database finds the same user for
 * all of them. Only the count: `authorize` gets the fields as sent.
 */
function normalized(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined
  const folded = value
    .normalize("NFKD")
    .replace(IGNORED, "")
    .toUpperCase()
    .toLowerCase()
    .normalize("NFKD")
    .replace(IGNORED, "")
    .trim()
  return folded === "" ? undefined : folded
}

function submitted(ctx: RequestContext): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(ctx.request.body ?? {}).filter(([key]) => !RESERVED.has(key)),
  )
}

/**
 * An identifier as submitted, normalized. A JSON body can send it as an array or
 * an object, which would be counted under nothing while `authorize` may still
 * read it as a name (`String(["ada"])` is "ada"): refused before `authorize` runs.
 * A number (a JSON client sending an account or phone number) counts as its text.
 */
function identifier(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return normalized(String(value))
  if (value !== undefined && value !== null && typeof value !== "string") {
    throw new RequestError(new InvalidRequest("The identifier must be a string"), 400)
  }
  return normalized(value)
}

/** The identifier of a credentials sign-in as sent (see `rateLimit.credentialsIdentifier`). */
function sentCredentialsIdentifier(
  ctx: RequestContext,
  limits: Pick<ResolvedRateLimits, "credentialsIdentifier">,
): unknown {
  const provider = ctx.flow!.provider as ResolvedCredentialsProvider
  const fields = submitted(ctx)
  const option = limits.credentialsIdentifier
  if (typeof option === "function") return option(fields, provider.id)
  if (typeof option === "string") return fields[option]
  const declared = Object.entries(provider.credentials ?? {}).find(
    ([, field]) => (field as { type?: unknown } | undefined)?.type !== "password",
  )?.[0]
  if (declared !== undefined) return fields[declared]
  return identifier(fields.email) !== undefined ? fields.email : fields.username
}

/** The identifier of a credentials sign-in, normalized: what its lockout counts under. */
export function credentialsIdentifierOf(
  ctx: RequestContext,
  limits: Pick<ResolvedRateLimits, "credentialsIdentifier">,
): string | undefined {
  return identifier(sentCredentialsIdentifier(ctx, limits))
}

/** The address an e-mail provider would use, or `undefined` for one it refuses. */
function emailAddressOf(provider: ResolvedEmailProvider, value: unknown): string | undefined {
  if (typeof value !== "string") return undefined
  try {
    const address = provider.normalizeIdentifier(value)
    return typeof address === "string" && address !== "" ? address : undefined
  } catch {
    return undefined
  }
}

const isType = (ctx: RequestContext, type: string) => ctx.flow?.type === type

/**
 * The client's address, only from the source the app trusts: the entry of its
 * proxy header its outermost proxy appended, or the address the integration
 * handed over with the request. None found (a header shorter than the proxy
 * chain, an integration that reported nothing): not counted per IP, as without
 * a source, and the operator hears of it once. Not a shared "unknown" count
 * either: through the chain every request has an address, so only a request
 * that went around it lacks one, and its sender could as well write a fresh
 * address per request.
 */
function clientIp(ctx: RequestContext, limits: ResolvedRateLimits): string | undefined {
  let subject: string | undefined
  if (limits.ipHeader)
    subject = clientIpSubject(ctx.request.headers.get(limits.ipHeader), limits.ipHeaderDepth)
  else if (limits.clientAddress) {
    const address = clientAddressOf(ctx.original)
    subject = address === undefined ? undefined : addressSubject(address)
  } else return undefined
  if (subject === undefined && !ctx.config.warned.has("rate-limit-client-address-missing")) {
    ctx.config.warned.add("rate-limit-client-address-missing")
    ctx.config.logger.warn("rate-limit-client-address-missing")
  }
  return subject
}

/**
 * Failed credentials sign-ins, per identifier. The identifier is folded more
 * loosely than the app's database may compare (`adá` and `ada` can be two
 * users there), so the owner of a look-alike could clear the count with their
 * own successes, again and again, between guesses at the other's password:
 * a success clears it only when every failure counted was made under the very
 * spelling that just succeeded, and otherwise takes back its own attempt.
 */
export const credentialsPolicy: RateLimitPolicy = {
  rule: "credentials",
  counts: "failures",
  subject: (ctx, limits) =>
    isType(ctx, "credentials") ? credentialsIdentifierOf(ctx, limits) : undefined,
  spelling: (ctx, limits) => {
    const sent = sentCredentialsIdentifier(ctx, limits)
    return typeof sent === "number" ? String(sent) : typeof sent === "string" ? sent : undefined
  },
}

/** Failed credentials sign-ins, per IP address. */
export const credentialsIpPolicy: RateLimitPolicy = {
  rule: "credentialsIp",
  counts: "attempts",
  subject: (ctx, limits) => (isType(ctx, "credentials") ? clientIp(ctx, limits) : undefined),
}

/** Domains that deliver to one Gmail inbox. */
const GMAIL = new Set(["gmail.com", "googlemail.com"])

/**
 * The mailbox an address delivers to, for counting mails: case-folded (an
 * app's `normalizeIdentifier` may keep case), without a `+tag` (one mailbox
 * wherever sub-addressing is on) and without dots in the local part (Gmail and
 * every Google Workspace domain ignore them: a name of n letters has 2^(n-1)
 * dotted spellings), `googlemail.com` as `gmail.com`; so spellings of one inbox
 * share one count. Two mailboxes elsewhere that differ only by dots share it
 * too: a count, not an identity. Only the count: the mail still goes to the
 * address as the provider has it.
 */
function mailbox(address: string | undefined): string | undefined {
  const folded = normalized(address)
  const at = folded?.lastIndexOf("@") ?? -1
  if (!folded || at < 1) return folded
  const local = folded.slice(0, at).replace(/\+.*$/, "").replaceAll(".", "")
  const domain = folded.slice(at + 1)
  return `${local === "" ? folded.slice(0, at) : local}@${GMAIL.has(domain) ? "gmail.com" : domain}`
}

/** Sign-in e-mails, per mailbox (see {@link mailbox}). */
export const emailPolicy: RateLimitPolicy = {
  rule: "email",
  counts: "requests",
  subject: (ctx) =>
    isType(ctx, "email")
      ? mailbox(
          emailAddressOf(ctx.flow!.provider as ResolvedEmailProvider, ctx.request.body?.email),
        )
      : undefined,
}

/** Sign-in e-mails, per IP address. */
export const emailIpPolicy: RateLimitPolicy = {
  rule: "emailIp",
  counts: "requests",
  subject: (ctx, limits) => (isType(ctx, "email") ? clientIp(ctx, limits) : undefined),
}

/**
 * A link token shorter than this is counted like a code: only an app's own
 * `generateVerificationToken` makes one (the default is 64 hex characters, 256
 * bits), and a short token (6 digits, say) is guessed as easily as a code.
 * Long tokens are never counted, so bogus links cannot lock an address out.
 */
export const SHORT_LINK_TOKEN = 32

/**
 * One-time codes entered, per address. A request carries a code to check
 * when it posts one, or follows a mailed link holding one, or a short token
 * (unless the provider only shows a confirmation page for links).
 */
export const emailCodePolicy: RateLimitPolicy = {
  rule: "emailCode",
  counts: "failures",
  subject(ctx) {
    if (!isType(ctx, "email")) return undefined
    const provider = ctx.flow!.provider as ResolvedEmailProvider
    const { method, query, body } = ctx.request
    if (method === "GET" && provider.confirmLink) return undefined
    // Read as the callback reads them: the code form's fields, or the link's (query, then body).
    const fields = method === "POST" ? (body ?? {}) : query
    if (fields.code !== undefined) return emailAddressOf(provider, fields.email)
    const token = query.token ?? body?.token
    if (typeof token === "string" && token.length < SHORT_LINK_TOKEN)
      return emailAddressOf(provider, query.email ?? body?.email)
    return undefined
  },
}

/** Passkey options, per e-mail address given (a registration's). */
export const webauthnOptionsPolicy: RateLimitPolicy = {
  rule: "webauthnOptions",
  counts: "requests",
  subject(ctx) {
    const email = ctx.request.query.email
    if (!email) return undefined
    try {
      return normalizeEmailAddress(email)
    } catch {
      return undefined
    }
  },
}

/** Passkey options, per IP address. */
export const webauthnOptionsIpPolicy: RateLimitPolicy = {
  rule: "webauthnOptionsIp",
  counts: "requests",
  subject: clientIp,
}

/**
 * Second-factor codes, per user: the user of the pending sign-in at
 * `callback/two-factor`, the signed-in user at `two-factor/enable` and
 * `disable`. One count for all three: a guesser gains nothing by switching.
 */
export const twoFactorPolicy: RateLimitPolicy = {
  rule: "twoFactor",
  counts: "failures",
  async subject(ctx) {
    if (ctx.request.action === "callback") {
      return isType(ctx, "two-factor") ? (await readPending(ctx))?.sub : undefined
    }
    return (await sessionStrategy(ctx).currentUserId(ctx)) ?? undefined
  },
}

/** The policy of each rule, by the rule's name (the route table names them). */
const policies: Readonly<Record<RateLimitRuleName, RateLimitPolicy>> = {
  credentials: credentialsPolicy,
  credentialsIp: credentialsIpPolicy,
  email: emailPolicy,
  emailIp: emailIpPolicy,
  emailCode: emailCodePolicy,
  webauthnOptions: webauthnOptionsPolicy,
  webauthnOptionsIp: webauthnOptionsIpPolicy,
  twoFactor: twoFactorPolicy,
}

/** What the handler does once the endpoint has answered. */
export interface RateLimitTicket {
  /** Records the outcome: after a success, clears `failures` subjects and takes back `attempts`. */
  settle(outcome: ResponseInternal | "failed"): Promise<void>
}

interface Applied {
  readonly rule: RateLimitRuleName
  readonly counts: RateLimitCount
  readonly subject: string
  readonly spelling: string | undefined
}

function refuse(rule: RateLimitRuleName, retryAfter: number): never {
  const error = new RateLimited(`Too many attempts: the ${rule} rate limit refused the request`, {
    rule,
  })
  error.retryAfter = retryAfter
  throw error
}

/**
 * Applies `policies` to the request: every limit is checked first (a request
 * refused by one counts toward none), then counted. Throws `RateLimited` with
 * the longest wait of the limits that refused.
 */
export async function enforceRateLimits(
  ctx: RequestContext,
  names: readonly RateLimitRuleName[] | undefined,
): Promise<RateLimitTicket | undefined> {
  const limits = ctx.config.rateLimits
  if (!limits || !names?.length) return undefined
  const applied: Applied[] = []
  for (const name of names) {
    const policy = policies[name]
    if (!limits.rules.has(policy.rule)) continue
    const subject = await policy.subject(ctx, limits)
    if (subject === undefined) continue
    const spelling = policy.spelling?.(ctx, limits)
    applied.push({ rule: policy.rule, counts: policy.counts, subject, spelling })
  }
  if (applied.length === 0) return undefined
  const limiter = await limits.limiter()
  const checks = await Promise.all(applied.map((a) => limiter.check(a.rule, a.subject)))
  const refused = checks.findIndex((r) => r.limited)
  if (refused !== -1) {
    const wait = Math.max(...checks.filter((r) => r.limited).map((r) => r.retryAfter))
    refuse(applied[refused]!.rule, wait)
  }
  // When the attempts were counted: a success after a window boundary is taken back from theirs.
  const hitAt = limits.now()
  const hits = await Promise.all(applied.map((a) => limiter.hit(a.rule, a.subject)))
  const over = hits.findIndex((r) => r.limited)
  // Lost a race to concurrent attempts: the count says this one is past the limit. Nothing was
  // attempted, so a shared subject's count (an IP address) does not keep it.
  if (over !== -1) {
    const attempts = applied.filter((a) => a.counts === "attempts")
    await Promise.all(attempts.map((a) => limiter.undo(a.rule, a.subject, hitAt)))
    refuse(applied[over]!.rule, hits[over]!.retryAfter)
  }
  return {
    async settle(outcome) {
      const failed = outcome === "failed" || (outcome.status ?? 200) >= 400
      const updates: Promise<unknown>[] = []
      for (const a of applied) {
        if (a.counts === "failures" && a.spelling !== undefined)
          updates.push(
            failed
              ? limiter.failed(a.rule, a.subject, a.spelling)
              : limiter.succeeded(a.rule, a.subject, a.spelling),
          )
        else if (!failed && a.counts === "failures")
          // Its own hit taken back first: if a guess counted meanwhile makes `reset` clear
          // nothing, the success itself is not left counted as a failure.
          updates.push(
            limiter.undo(a.rule, a.subject, hitAt).then(() => limiter.reset(a.rule, a.subject)),
          )
        if (!failed && a.counts === "attempts") updates.push(limiter.undo(a.rule, a.subject, hitAt))
      }
      if (failed) return void (await Promise.all(updates))
      // A success is done by now (a session made, a link or code used up): a store that fails to
      // record it leaves the counts as they were, the strict side, so it is logged (once), not
      // answered: refusing would leave the user signed out with their link spent.
      const fault = (await Promise.allSettled(updates)).find((r) => r.status === "rejected")
      if (fault) ctx.config.logger.error(asError(fault.reason))
    },
  }
}
