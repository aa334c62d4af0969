/**
 * WebAuthn challenges: random, bound to one browser, short-lived, single use.
 *
 * A challenge travels in the `webauthnChallenge` cookie, encrypted (the JWE of
 * `jwt.ts`, keyed with the cookie name as salt) together with what the ceremony
 * is for: the action, the provider and, for a registration, the user. The cookie
 * alone cannot make a challenge single use: whoever holds a copy of it could
 * send it again while it has not expired. So every challenge is also recorded
 * through the adapter's verification tokens (identifier
 * `webauthn-challenge:<provider>`, token = SHA-256 of the challenge, the same
 * expiry) and `useVerificationToken` consumes it atomically when the response
 * arrives: a second response with the same challenge finds nothing. The record
 * is consumed before the response is verified, so a failed attempt also burns it.
 *
 * When a browser asks for new options while holding an unused challenge (passkey
 * autofill re-arming, a second click), that older record is consumed right away:
 * its cookie is being replaced, so it could never be answered anyway. This keeps
 * unused records to one per browser.
 * @module
 */
import type { ResolvedWebAuthnProvider } from "../types.js"
import { base64url } from "jose"
import type { RequestContext } from "../../context.js"
import { WebAuthnVerificationError } from "../../errors.js"
import { expiredCookie } from "../../http/cookies.js"
import { decrypt, encrypt } from "../../jwt/codec.js"
import { callAdapter } from "../../lib/adapter.js"
import { sha256Hex } from "../../lib/crypto.js"

export type WebAuthnAction = "register" | "authenticate"

/** What the challenge cookie remembers between the options and the callback. */
export interface ChallengeClaims {
  challenge: string
  action: WebAuthnAction
  provider: string
  /** register: the id of the user the passkey is for (a new id, or the signed-in user's). */
  userId?: string
  /** register: true when the passkey is added to the signed-in user `userId`. */
  signedIn?: boolean
  /** register, new user: the e-mail address and display name given. */
  email?: string
  name?: string
}

const CHALLENGE_BYTES = 32

const identifierOf = (providerId: string) => `webauthn-challenge:${providerId}`

/** A new challenge from the CSPRNG (256 bits), base64url. */
export function newChallenge(): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(CHALLENGE_BYTES)))
}

async function readCookie(ctx: RequestContext): Promise<ChallengeClaims | undefined> {
  const { webauthnChallenge } = ctx.cookieOptions
  const value = ctx.request.cookies[webauthnChallenge.name]
  if (!value) return undefined
  try {
    const claims: Partial<ChallengeClaims> = await decrypt(
      ctx.config.keys,
      webauthnChallenge.name,
      value,
    )
    if (!claims || typeof claims.challenge !== "string" || typeof claims.provider !== "string")
      return undefined
    if (claims.action !== "register" && claims.action !== "authenticate") return undefined
    return claims as ChallengeClaims
  } catch {
    return undefined
  }
}

/** Consumes the record of `challenge`; true if it existed and had not expired. */
async function consumeRecord(ctx: RequestContext, claims: ChallengeClaims): Promise<boolean> {
  const record = await callAdapter(ctx.config, "useVerificationToken", {
    identifier: identifierOf(claims.provider),
    token: await sha256Hex(claims.challenge),
  })
  return !!record && new Date(record.expires).valueOf() > Date.now()
}

/** Records a new challenge and sets its cookie. `claims.challenge` must come from {@link newChallenge}. */
export async function issueChallenge(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  claims: ChallengeClaims,
): Promise<void> {
  const { webauthnChallenge } = ctx.cookieOptions
  const maxAge = provider.challengeMaxAge
  const previous = await readCookie(ctx)
  if (previous) await consumeRecord(ctx, previous)
  await callAdapter(ctx.config, "createVerificationToken", {
    identifier: identifierOf(provider.id),
    token: await sha256Hex(claims.challenge),
    expires: new Date(Date.now() + maxAge * 1000),
  })
  const value = await encrypt(ctx.config.keys, webauthnChallenge.name, { ...claims }, maxAge)
  ctx.cookies.push({
    ...webauthnChallenge,
    value,
    options: {
      ...webauthnChallenge.options,
      maxAge,
      expires: new Date(Date.now() + maxAge * 1000),
    },
  })
}

/**
 * The claims of the challenge this browser was given for `action` with
 * `provider`, consumed: the cookie is cleared and the record used up. Throws
 * `WebAuthnVerificationError` when there is none, it expired, it was for
 * something else, or it was used already.
 */
export async function consumeChallenge(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  action: WebAuthnAction,
): Promise<ChallengeClaims> {
  const { webauthnChallenge } = ctx.cookieOptions
  const present = ctx.request.cookies[webauthnChallenge.name] !== undefined
  if (present) ctx.cookies.push(expiredCookie(webauthnChallenge))
  const claims = await readCookie(ctx)
  if (!claims) {
    throw new WebAuthnVerificationError(
      present
        ? "The passkey challenge is invalid or expired"
        : "No passkey challenge: request webauthn-options first",
    )
  }
  if (claims.provider !== provider.id)
    throw new WebAuthnVerificationError("The passkey challenge was issued for another provider")
  // Burn it before looking further: a mismatched or failed attempt must not leave it usable.
  const fresh = await consumeRecord(ctx, claims)
  if (claims.action !== action)
    throw new WebAuthnVerificationError(
      `The passkey challenge was issued to ${claims.action}, not to ${action}`,
    )
  if (!fresh)
    throw new WebAuthnVerificationError("The passkey challenge was already used or has expired")
  return claims
}
