/**
 * WebAuthn challenges: random, bound to one browser, short-lived, single use.
 *
 * A challenge travels in the `webauthnChallenge` cookie only, encrypted (the
 * JWE of `jwt/codec.ts`, keyed with the cookie name as salt) together with what
 * the ceremony is for: the action, the provider and, for a registration, the
 * user. Asking for options writes nothing to the database, so anonymous
 * requests cannot fill it.
 *
 * The cookie alone cannot make a challenge single use: whoever holds a copy of
 * it and of an answer could send them again while the cookie has not expired.
 * So once an answer is verified, the challenge is recorded as used through the
 * adapter's verification tokens (identifier `webauthn-used:<provider>`, token =
 * SHA-256 of the challenge, expiring with it). Recording it twice fails (the
 * adapter refuses a duplicate token, as the conformance suite requires): the
 * second answer is refused, even when two arrive at once.
 * @module
 */
import type { ResolvedWebAuthnProvider } from "../types.js"
import type { RequestContext } from "../../context.js"
import { WebAuthnVerificationError } from "../../errors.js"
import { expiredCookie } from "../../http/cookies.js"
import { decrypt, encrypt } from "../../jwt/codec.js"
import { callAdapter } from "../../lib/adapter.js"
import { sha256Hex } from "../../lib/crypto.js"
import { isDuplicateRefusal } from "../../lib/duplicate.js"
import { toBase64Url } from "./encoding.js"

/**
 * What a challenge is for: a registration, a passkey sign-in, or the second
 * step of a pending sign-in (`two-factor`: an assertion of the pending user's
 * own passkeys). A challenge for one is refused for the others.
 */
export type WebAuthnAction = "register" | "authenticate" | "two-factor"

/** What the challenge cookie remembers between the options and the callback. */
export interface ChallengeClaims {
  challenge: string
  action: WebAuthnAction
  provider: string
  /**
   * register: the id of the user the passkey is for (a new id, or the signed-in user's);
   * two-factor: the pending sign-in's user.
   */
  userId?: string
  /** two-factor: the pending sign-in the challenge was issued to (its `jti`). */
  pending?: string
  /** register: true when the passkey is added to the signed-in user `userId`. */
  signedIn?: boolean
  /** register, new user: the e-mail address and display name given. */
  email?: string
  name?: string
  /** When the challenge expires (seconds), as the cookie's token says. */
  exp?: number
}

const ACTIONS = new Set<WebAuthnAction>(["register", "authenticate", "two-factor"])

const CHALLENGE_BYTES = 32

const identifierOf = (providerId: string) => `webauthn-used:${providerId}`

/** A new challenge from the CSPRNG (256 bits), base64url. */
export function newChallenge(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(CHALLENGE_BYTES)))
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
    if (!ACTIONS.has(claims.action as WebAuthnAction)) return undefined
    // The challenge's lifetime is exact: no clock tolerance as for session tokens.
    if (typeof claims.exp !== "number" || claims.exp * 1000 <= Date.now()) return undefined
    return claims as ChallengeClaims
  } catch {
    return undefined
  }
}

/** Sets the cookie of a new challenge. `claims.challenge` must come from {@link newChallenge}. */
export async function issueChallenge(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  claims: ChallengeClaims,
): Promise<void> {
  const { webauthnChallenge } = ctx.cookieOptions
  const maxAge = provider.challengeMaxAge
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
 * `provider`; the cookie is cleared. Throws `WebAuthnVerificationError` when
 * there is none, it expired, or it was for something else.
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
  if (claims.action !== action)
    throw new WebAuthnVerificationError(
      `The passkey challenge was issued to ${claims.action}, not to ${action}`,
    )
  return claims
}

/**
 * Records the challenge of a verified answer as used; throws when it was used
 * already. Called only after the answer's signature checked out, so no
 * anonymous request writes a row.
 */
export async function recordChallengeUse(
  ctx: RequestContext,
  claims: ChallengeClaims,
): Promise<void> {
  const expires = new Date((claims.exp ?? Math.floor(Date.now() / 1000) + 600) * 1000)
  try {
    await callAdapter(ctx.config, "createVerificationToken", {
      identifier: identifierOf(claims.provider),
      token: await sha256Hex(claims.challenge),
      expires,
    })
  } catch (error) {
    // Only the duplicate is a replay; the database failing to store the use is a server fault.
    if (!isDuplicateRefusal(error)) throw error
    throw new WebAuthnVerificationError("The passkey challenge was already used", {
      cause: { err: error },
    })
  }
}
