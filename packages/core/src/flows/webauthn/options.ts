/**
 * GET webauthn-options/<provider>: the options the browser passes to
 * `startRegistration` / `startAuthentication` of @simplewebauthn/browser.
 *
 * Answers `{ action, options }`. `?action=register|authenticate|two-factor`
 * picks the ceremony; without it: a signed-in user registers (adds a passkey),
 * an `email` of no known user registers (a new account), anything else
 * authenticates. `two-factor` is the second step of a pending sign-in: an
 * assertion of one of the pending user's own passkeys (`allowCredentials`
 * lists them). The challenge is set in the `webauthnChallenge` cookie.
 * @module
 */
import type { ResolvedWebAuthnProvider } from "../types.js"
import { generateAuthenticationOptions, generateRegistrationOptions } from "@simplewebauthn/server"
import type { AdapterUser } from "../../adapters.js"
import type { RequestContext } from "../../context.js"
import { InvalidRequest, TwoFactorExpired } from "../../errors.js"
import { RequestError } from "../../http/request.js"
import { noStoreHeaders } from "../../http/response.js"
import { callAdapter } from "../../lib/adapter.js"
import { normalizeEmailAddress } from "../email/address.js"
import type {
  WebAuthnConfig,
  WebAuthnGetUserInfoOptions,
  WebAuthnUserInfo,
} from "../../providers/webauthn.js"
import { sessionStrategy } from "../../session/index.js"
import { readPending } from "../../two-factor/pending.js"
import type { ResponseInternal } from "../../types.js"
import {
  issueChallenge,
  newChallenge,
  type ChallengeClaims,
  type WebAuthnAction,
} from "./challenge.js"
import { fromBase64Url } from "./encoding.js"
import { relyingPartyFor } from "./relying-party.js"
import { secondFactorPasskeys } from "./second-factor.js"
import { authenticationDefaults, registrationDefaults } from "./settings.js"
import { userHandleOf } from "./user-handle.js"

const MAX_EMAIL = 320
const MAX_NAME = 200

function badRequest(message: string, status = 400): RequestError {
  return new RequestError(new InvalidRequest(message), status)
}

function requestedAction(value: string | undefined): WebAuthnAction | undefined {
  if (value === undefined || value === "") return undefined
  if (value === "register" || value === "authenticate" || value === "two-factor") return value
  throw badRequest('action must be "register", "authenticate" or "two-factor"')
}

/** The signed-in user, if the session names one the adapter knows. */
async function signedInUser(ctx: RequestContext): Promise<AdapterUser | null> {
  const id = await sessionStrategy(ctx).currentUserId(ctx)
  return id ? await callAdapter(ctx.config, "getUser", id) : null
}

/**
 * Default `getUserInfo`: `email` (and `name`) from the query. Whether an
 * account uses the address is not looked up: the answer to an anonymous
 * request must not tell. A passkey for an address that has an account is
 * refused when its registration arrives (after the ceremony).
 */
async function defaultUserInfo(ctx: RequestContext): Promise<WebAuthnUserInfo | null> {
  const raw = ctx.request.query.email?.trim()
  if (!raw) return null
  const email = normalizedEmail(raw)
  const name = ctx.request.query.name?.trim().slice(0, MAX_NAME) || null
  return { user: { email, name }, exists: false }
}

/** The address as e-mail sign-in keeps it, or 400. */
function normalizedEmail(raw: string): string {
  let email: string
  try {
    email = normalizeEmailAddress(raw)
  } catch {
    throw badRequest("Malformed e-mail address")
  }
  if (email.length > MAX_EMAIL) throw badRequest("Malformed e-mail address")
  return email
}

/**
 * `getUserInfo`'s first argument as Auth.js passes it (its internal options: `adapter`,
 * `provider`, `url`), so a `getUserInfo` written for Auth.js runs unchanged. It inherits the
 * provider's own fields: Tessera 0.1 passed the provider itself, and code reading
 * `options.id` keeps working.
 */
function userInfoOptions(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
): WebAuthnGetUserInfoOptions {
  const own = { provider, adapter: ctx.config.adapter, url: new URL(ctx.authUrl) }
  return Object.assign(Object.create(provider) as WebAuthnConfig, own)
}

async function userInfo(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
): Promise<WebAuthnUserInfo | null> {
  if (!provider.getUserInfo) return defaultUserInfo(ctx)
  const info = await provider.getUserInfo(userInfoOptions(ctx, provider), ctx.request)
  if (info && typeof info.user?.email === "string") {
    const email = normalizedEmail(info.user.email)
    return { user: { ...info.user, email }, exists: !!info.exists }
  }
  return info ?? null
}

async function registrationOptions(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  challenge: string,
  current: AdapterUser | null,
  info: WebAuthnUserInfo | null,
) {
  let claims: ChallengeClaims
  let user: { id: string; name: string; displayName: string }
  let exclude: { id: string; transports?: string[] }[] = []
  if (current) {
    // Adding a passkey to the signed-in user. Their existing credentials are
    // excluded so the same authenticator is not registered twice.
    const name = current.email ?? current.name ?? current.id
    user = { id: current.id, name, displayName: current.name ?? name }
    claims = {
      challenge,
      action: "register",
      provider: provider.id,
      userId: current.id,
      signedIn: true,
    }
    exclude = (await callAdapter(ctx.config, "listAuthenticatorsByUserId", current.id)).map(
      (a) => ({
        id: a.credentialID,
        ...(a.transports ? { transports: a.transports.split(",") } : {}),
      }),
    )
  } else {
    const email = info?.user.email
    if (!info || !email) throw badRequest("An e-mail address is needed to register a passkey")
    const id = crypto.randomUUID()
    const displayName = info.user.name ?? email
    user = { id, name: email, displayName }
    claims = {
      challenge,
      action: "register",
      provider: provider.id,
      userId: id,
      email,
      ...(info.user.name ? { name: info.user.name } : {}),
    }
  }
  const rp = relyingPartyFor(ctx, provider)
  const options = await generateRegistrationOptions({
    ...registrationDefaults(provider),
    rpName: rp.name,
    rpID: rp.id,
    userID: await userHandleOf(user.id),
    userName: user.name,
    userDisplayName: user.displayName,
    challenge: fromBase64Url(challenge),
    excludeCredentials: exclude,
  })
  return { options, claims }
}

async function authenticationOptions(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  challenge: string,
) {
  // No allowCredentials: passkeys are discoverable, and listing a user's
  // credential ids would tell anyone which e-mail addresses have passkeys.
  const rp = relyingPartyFor(ctx, provider)
  const options = await generateAuthenticationOptions({
    ...authenticationDefaults(provider),
    rpID: rp.id,
    challenge: fromBase64Url(challenge),
  })
  const claims: ChallengeClaims = { challenge, action: "authenticate", provider: provider.id }
  return { options, claims }
}

/**
 * The second step of a pending sign-in: the pending user's passkeys only. Who
 * asks already passed the first factor (the pending cookie says so), so listing
 * that user's credential ids tells them nothing about anyone else.
 */
async function twoFactorOptions(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  challenge: string,
) {
  if (!ctx.config.twoFactor) throw badRequest("Second factors are not enabled")
  const pending = await readPending(ctx)
  if (!pending)
    throw new RequestError(
      new TwoFactorExpired("No sign-in is waiting for a second factor, or it expired"),
      401,
    )
  const authenticators = await secondFactorPasskeys(ctx, provider, pending)
  if (!authenticators.length)
    throw badRequest("The user has no passkey of this provider to use as a second factor")
  const rp = relyingPartyFor(ctx, provider)
  const options = await generateAuthenticationOptions({
    // User verification asked for as the provider asks for it, though not required of the
    // answer (callback.ts): possession is the second factor, the first was something known.
    ...authenticationDefaults(provider),
    rpID: rp.id,
    challenge: fromBase64Url(challenge),
    allowCredentials: authenticators.map((a) => ({
      id: a.credentialID,
      ...(a.transports ? { transports: a.transports.split(",") } : {}),
    })),
  })
  const claims: ChallengeClaims = {
    challenge,
    action: "two-factor",
    provider: provider.id,
    userId: pending.sub,
    pending: pending.jti,
  }
  return { options, claims }
}

/** The options and challenge claims of `action`. */
function ceremonyOptions(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  action: WebAuthnAction,
  challenge: string,
  current: AdapterUser | null,
  info: WebAuthnUserInfo | null,
) {
  if (action === "register") return registrationOptions(ctx, provider, challenge, current, info)
  if (action === "two-factor") return twoFactorOptions(ctx, provider, challenge)
  return authenticationOptions(ctx, provider, challenge)
}

export async function webauthnOptions(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
): Promise<ResponseInternal> {
  const requested = requestedAction(ctx.request.query.action)
  const signingIn = requested === "authenticate" || requested === "two-factor"
  const current = signingIn ? null : await signedInUser(ctx)
  // Who is asking matters only to a registration by someone not signed in.
  const info = current || signingIn ? null : await userInfo(ctx, provider)
  const action: WebAuthnAction =
    requested ?? (current || (info?.user.email && !info.exists) ? "register" : "authenticate")
  const challenge = newChallenge()
  const { options, claims } = await ceremonyOptions(ctx, provider, action, challenge, current, info)
  await issueChallenge(ctx, provider, claims)
  return { headers: noStoreHeaders, body: { action, options } }
}
