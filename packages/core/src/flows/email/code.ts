/**
 * One-time e-mail codes: 8 digits, 10 minutes, single use, dead after 5 wrong
 * attempts. Stored through the adapter's verification tokens only, so every
 * adapter that supports e-mail links supports codes too:
 *
 * - the code: identifier `email-code:<provider>:<address>`, token a keyed hash
 *   of the code bound to the provider and address; consumed atomically by
 *   `useVerificationToken` (of two racing uses, one wins);
 * - its attempts: 5 rows `email-code-attempt:<provider>:<address>`, one per
 *   allowed attempt. Every attempt, right or wrong, first consumes one (each
 *   atomically, so concurrent guesses get distinct ones); with none left,
 *   even the right code is refused. A code's 10^8 values against 5 guesses
 *   is a 1-in-20-million chance per code mailed, and mails are rate limited.
 *
 * A wrong guess cannot touch the code's own row (its key is the code), which
 * is why attempts are counted in rows keyed by the address. Mailing a new
 * code restores the 5 attempts; an earlier code stays valid until it expires,
 * as earlier links do.
 * @module
 */
import type { RequestContext } from "../../context.js"
import { Verification } from "../../errors.js"
import { callAdapter } from "../../lib/adapter.js"
import type { KeyRing } from "../../jwt/keys.js"
import type { ResolvedEmailProvider } from "../types.js"
import { tokenKeys } from "./token.js"

/** How long a code works: 10 minutes. */
export const CODE_MAX_AGE = 10 * 60
/** Wrong attempts a code survives. */
export const CODE_ATTEMPTS = 5
const DIGITS = 8
const RANGE = 10 ** DIGITS
/** The largest multiple of RANGE below 2^32: values above it are drawn again, so no code is likelier. */
const LIMIT = Math.floor(2 ** 32 / RANGE) * RANGE

/** 8 uniformly random digits from the CSPRNG. */
export function generateCode(): string {
  const buffer = new Uint32Array(1)
  for (;;) {
    crypto.getRandomValues(buffer)
    if (buffer[0]! < LIMIT) return String(buffer[0]! % RANGE).padStart(DIGITS, "0")
  }
}

/** A code as a user may type it: the digits, with spaces or dashes between groups dropped. */
export function readCode(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 32) return undefined
  const digits = value.replace(/[\s-]/g, "")
  return /^\d{8}$/.test(digits) ? digits : undefined
}

const codeIdentifier = (provider: ResolvedEmailProvider, address: string) =>
  `email-code:${provider.id}:${address}`
const attemptIdentifier = (provider: ResolvedEmailProvider, address: string) =>
  `email-code-attempt:${provider.id}:${address}`

function codeHash(
  keys: KeyRing,
  provider: ResolvedEmailProvider,
  address: string,
  code: string,
  index = 0,
) {
  return keys.hmac(`tessera.email-code:${provider.id}:${address}:${code}`, index)
}

function attemptTokens(ctx: RequestContext, provider: ResolvedEmailProvider, address: string) {
  const keys = tokenKeys(ctx.config, provider)
  return Promise.all(
    Array.from({ length: CODE_ATTEMPTS }, (_, i) =>
      keys.hmac(`tessera.email-code-attempt:${provider.id}:${address}:${i}`),
    ),
  )
}

/**
 * Stores `code` for `address` with a fresh set of attempts; returns a function
 * that takes the code out again (when the mail could not be sent).
 */
export async function storeCode(
  ctx: RequestContext,
  provider: ResolvedEmailProvider,
  address: string,
  code: string,
  expires: Date,
): Promise<() => Promise<void>> {
  const { config } = ctx
  const token = await codeHash(tokenKeys(config, provider), provider, address, code)
  const identifier = codeIdentifier(provider, address)
  await callAdapter(config, "createVerificationToken", { identifier, token, expires })
  const attempts = attemptIdentifier(provider, address)
  const tokens = await attemptTokens(ctx, provider, address)
  // Whatever is left of an earlier code's attempts goes; then 5 new ones. A
  // concurrent request may have made some already: the duplicates are refused
  // by the adapter and change nothing.
  await Promise.all(
    tokens.map((t) =>
      callAdapter(config, "useVerificationToken", { identifier: attempts, token: t }),
    ),
  )
  await Promise.all(
    tokens.map((t) =>
      callAdapter(config, "createVerificationToken", {
        identifier: attempts,
        token: t,
        expires,
      }).catch(() => undefined),
    ),
  )
  return async () => {
    await callAdapter(config, "useVerificationToken", { identifier, token }).catch(() => undefined)
  }
}

/** Takes one attempt, if any is left. */
async function takeAttempt(
  ctx: RequestContext,
  provider: ResolvedEmailProvider,
  address: string,
  tokens: readonly string[],
): Promise<boolean> {
  const identifier = attemptIdentifier(provider, address)
  // In order: after n attempts the first n are gone, so this costs n + 1 queries at most.
  for (const token of tokens) {
    const taken = await callAdapter(ctx.config, "useVerificationToken", { identifier, token })
    if (taken && taken.expires.valueOf() > Date.now()) return true
  }
  return false
}

/**
 * Checks `code` for `address`: spends an attempt, then consumes the code.
 * Throws `Verification` for a wrong, used or expired code, or when no attempt
 * is left. On success the attempts left are cleared.
 */
export async function consumeCode(
  ctx: RequestContext,
  provider: ResolvedEmailProvider,
  address: string,
  code: string,
): Promise<void> {
  const tokens = await attemptTokens(ctx, provider, address)
  if (!(await takeAttempt(ctx, provider, address, tokens))) {
    throw new Verification("No attempts left for this code: request a new one", {
      cause: { provider: provider.id },
    })
  }
  const identifier = codeIdentifier(provider, address)
  let found = null
  const keys = tokenKeys(ctx.config, provider)
  for (let index = 0; index < keys.secrets.length; index++) {
    const token = await codeHash(keys, provider, address, code, index)
    found = await callAdapter(ctx.config, "useVerificationToken", { identifier, token })
    if (found) break
  }
  if (!found) {
    throw new Verification("The code is wrong or was already used", {
      cause: { provider: provider.id },
    })
  }
  if (found.expires.valueOf() <= Date.now()) {
    throw new Verification("The code has expired", { cause: { provider: provider.id } })
  }
  const attempts = attemptIdentifier(provider, address)
  await Promise.all(
    tokens.map((token) =>
      callAdapter(ctx.config, "useVerificationToken", { identifier: attempts, token }),
    ),
  )
}
