/**
 * POST callback/<provider>: verifies what the browser's authenticator answered.
 *
 * Body fields: `action` ("register" or "authenticate"), `data` (the JSON of
 * `startRegistration`/`startAuthentication`'s result), `csrfToken` (checked by
 * the callback action) and optionally `callbackUrl`. Every refusal is a
 * `WebAuthnVerificationError`: logged, no session, the user lands on the
 * sign-in page with `error=Callback` (or gets that URL as JSON).
 *
 * The same assertion check serves the second step of a pending sign-in
 * (`verifySecondFactorPasskey`, from `callback/two-factor`): a `two-factor`
 * challenge, and a passkey of the pending user only.
 *
 * Before @simplewebauthn/server sees the response, the client data is checked
 * here (type, challenge in constant time, origin) so that these refusals have
 * their own messages and no challenge ends up in a log line.
 * @module
 */
import type { ResolvedWebAuthnProvider, SecondFactorPending } from "../types.js"
import { verifyAuthenticationResponse, verifyRegistrationResponse } from "@simplewebauthn/server"
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server"
import type { AdapterAuthenticator, AdapterUser } from "../../adapters.js"
import type { RequestContext } from "../../context.js"
import { InvalidRequest, WebAuthnVerificationError } from "../../errors.js"
import { RequestError } from "../../http/request.js"
import { callAdapter } from "../../lib/adapter.js"
import { timingSafeEqual } from "../../lib/crypto.js"
import { sessionStrategy } from "../../session/index.js"
import { staleSignIn } from "../../session/recent-sign-in.js"
import { completeSignIn } from "../sign-in/complete.js"
import type { ResponseInternal } from "../../types.js"
import {
  consumeChallenge,
  recordChallengeUse,
  type ChallengeClaims,
  type WebAuthnAction,
} from "./challenge.js"
import { claimCounterStep, raiseCounter, swapCounter, swapsCounter } from "./counter.js"
import { fromBase64Url, toBase64Url } from "./encoding.js"
import { persistWebAuthn, type PendingWebAuthnSignIn } from "./persist.js"
import { relyingPartyFor, type RequestRelyingParty } from "./relying-party.js"
import { firstFactorPasskey } from "./second-factor.js"
import { authenticationVerification, registrationVerification } from "./settings.js"

const B64URL = /^[A-Za-z0-9_-]+={0,2}$/
const MAX_CREDENTIAL_ID = 1366 // 1023 bytes, the WebAuthn limit, in base64url

type ParsedResponse =
  | { action: "register"; response: RegistrationResponseJSON }
  | { action: "authenticate"; response: AuthenticationResponseJSON }

function malformed(message: string): RequestError {
  return new RequestError(new InvalidRequest(message), 400)
}

const isB64 = (value: unknown): value is string =>
  typeof value === "string" && value.length > 0 && B64URL.test(value)

/** The body as the contract says it is, or 400: nothing is looked up for a malformed one. */
function parseBody(ctx: RequestContext): ParsedResponse {
  const body = ctx.request.body ?? {}
  const action = body.action
  if (action !== "register" && action !== "authenticate")
    throw malformed('action must be "register" or "authenticate"')
  return { action, response: parseResponse(body.data, action) } as ParsedResponse
}

/** `data`, the JSON of the browser's answer to `action`'s ceremony, or 400. */
function parseResponse(
  raw: unknown,
  action: "register" | "authenticate",
): RegistrationResponseJSON | AuthenticationResponseJSON {
  let data: unknown = raw
  if (typeof data === "string") {
    try {
      data = JSON.parse(data)
    } catch {
      throw malformed("data is not valid JSON")
    }
  }
  if (!data || typeof data !== "object" || Array.isArray(data))
    throw malformed("data must be the JSON of the browser's WebAuthn response")
  const candidate = data as Record<string, any>
  const inner = candidate.response
  const shaped =
    isB64(candidate.id) &&
    candidate.id.length <= MAX_CREDENTIAL_ID &&
    candidate.rawId === candidate.id &&
    candidate.type === "public-key" &&
    inner &&
    typeof inner === "object" &&
    isB64(inner.clientDataJSON) &&
    (action === "register"
      ? isB64(inner.attestationObject) &&
        (inner.transports === undefined ||
          (Array.isArray(inner.transports) &&
            inner.transports.every((t: unknown) => typeof t === "string")))
      : isB64(inner.authenticatorData) &&
        isB64(inner.signature) &&
        (inner.userHandle === undefined ||
          inner.userHandle === null ||
          typeof inner.userHandle === "string"))
  if (!shaped)
    throw malformed(
      `data is not a WebAuthn ${action === "register" ? "registration" : "authentication"} response`,
    )
  if (candidate.clientExtensionResults === undefined) candidate.clientExtensionResults = {}
  return candidate as RegistrationResponseJSON | AuthenticationResponseJSON
}

/** Type, challenge and origin of the client data, checked before anything else. */
function checkClientData(
  clientDataJSON: string,
  action: WebAuthnAction,
  challenge: string,
  rp: RequestRelyingParty,
): void {
  let clientData: { type?: unknown; challenge?: unknown; origin?: unknown } | null
  try {
    clientData = JSON.parse(new TextDecoder().decode(fromBase64Url(clientDataJSON)))
  } catch {
    throw new WebAuthnVerificationError("The passkey response's client data is not JSON")
  }
  // `null` parses too, and reading a field of it would throw a TypeError (a 500).
  if (typeof clientData !== "object" || clientData === null) {
    throw new WebAuthnVerificationError("The passkey response's client data is not a JSON object")
  }
  const expectedType = action === "register" ? "webauthn.create" : "webauthn.get"
  if (clientData.type !== expectedType)
    throw new WebAuthnVerificationError(`The passkey response is not a ${expectedType} response`)
  if (
    typeof clientData.challenge !== "string" ||
    !timingSafeEqual(clientData.challenge, challenge)
  ) {
    throw new WebAuthnVerificationError("The passkey response answers another challenge")
  }
  if (typeof clientData.origin !== "string" || !rp.origins.includes(clientData.origin)) {
    throw new WebAuthnVerificationError(
      "The passkey response comes from an origin that is not allowed",
    )
  }
}

/** The library's own checks (rp id, flags, signature, counter, attestation) as one error type. */
async function verified<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw new WebAuthnVerificationError(`The passkey ${what} could not be verified`, {
      cause: { err: error },
    })
  }
}

const TRANSPORT = /^[a-z][a-z0-9-]{0,31}$/
const MAX_TRANSPORTS = 8

/**
 * The transports to store (comma-separated), from what the browser reported: nothing signs
 * them, so only names shaped like transports (`usb`, `hybrid`, ...; new ones too), once
 * each, a few at most. They are hints sent back in later options, not a place for 60 KB of
 * anything or a comma that would split into two.
 */
function storedTransports(reported: readonly string[] | undefined): string | null {
  const kept = [...new Set((reported ?? []).filter((t) => TRANSPORT.test(t)))]
  return kept.length ? kept.slice(0, MAX_TRANSPORTS).join(",") : null
}

async function register(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  response: RegistrationResponseJSON,
  claims: ChallengeClaims,
  rp: RequestRelyingParty,
): Promise<ResponseInternal> {
  const result = await verified("registration", () =>
    verifyRegistrationResponse({
      ...registrationVerification(provider),
      response,
      expectedChallenge: claims.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
    }),
  )
  if (!result.verified)
    throw new WebAuthnVerificationError("The passkey registration could not be verified")
  await recordChallengeUse(ctx, claims)
  const { credential, credentialDeviceType, credentialBackedUp } = result.registrationInfo
  // The library takes the id from the authenticator data; the one the browser reported must agree.
  if (credential.id !== response.id)
    throw new WebAuthnVerificationError(
      "The response's credential id does not match its authenticator data",
    )
  if (await callAdapter(ctx.config, "getAuthenticator", credential.id)) {
    throw new WebAuthnVerificationError("This passkey is registered already")
  }
  if (!claims.userId)
    throw new WebAuthnVerificationError("The registration challenge names no user")

  let user: AdapterUser
  if (claims.signedIn) {
    // The passkey goes to the user who asked for the options, who must still be the one signed in.
    const currentId = await sessionStrategy(ctx).currentUserId(ctx)
    if (currentId !== claims.userId)
      throw new WebAuthnVerificationError("The signed-in user changed during passkey registration")
    // Checked again now that the passkey is added: the options were asked for up to
    // `challengeMaxAge` ago, and a ceremony left open must not outlive the recent sign-in.
    if (await staleSignIn(ctx))
      throw new WebAuthnVerificationError(
        "Adding a passkey needs a recent sign-in (session.recentSignInAge): the session's is older",
      )
    const current = await callAdapter(ctx.config, "getUser", currentId)
    if (!current) throw new WebAuthnVerificationError("The signed-in user no longer exists")
    user = current
  } else {
    if (!claims.email)
      throw new WebAuthnVerificationError("The registration challenge names no e-mail address")
    user = {
      id: claims.userId,
      email: claims.email,
      name: claims.name ?? null,
      image: null,
      emailVerified: null,
    }
  }
  const transports = storedTransports(response.response.transports)
  const webauthn: PendingWebAuthnSignIn = {
    kind: "register",
    isNewUser: !claims.signedIn,
    user,
    authenticator: {
      credentialID: credential.id,
      providerAccountId: credential.id,
      credentialPublicKey: toBase64Url(credential.publicKey),
      counter: credential.counter,
      credentialDeviceType,
      credentialBackedUp,
      transports,
    },
  }
  const account = {
    type: "webauthn" as const,
    provider: provider.id,
    providerAccountId: credential.id,
  }
  return completeSignIn(ctx, { user, account, webauthn }, persistWebAuthn)
}

/**
 * The user a verified passkey signs in: through its account with this provider, as Auth.js
 * (`getAccount`). The authenticator row alone is not enough: an app removes a passkey by
 * unlinking its account (the adapter interface has no `deleteAuthenticator`), and a passkey
 * registered through another provider must not sign in as this one (red team 22). Checked
 * before anything is written, so a refusal writes nothing.
 */
async function ownerThroughAccount(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  authenticator: AdapterAuthenticator,
): Promise<AdapterUser> {
  const account = await callAdapter(
    ctx.config,
    "getAccount",
    authenticator.providerAccountId,
    provider.id,
  )
  if (!account || account.userId !== authenticator.userId)
    throw new WebAuthnVerificationError(
      "The passkey is not linked to an account with this provider (removed, or registered through another)",
    )
  const user = await callAdapter(ctx.config, "getUser", authenticator.userId)
  if (!user) throw new WebAuthnVerificationError("The passkey's user no longer exists")
  return user
}

/** What a verified assertion proved: whose passkey it is, and whether the authenticator verified the user. */
export interface VerifiedAssertion {
  user: AdapterUser
  authenticator: AdapterAuthenticator
  userVerified: boolean
}

/**
 * Verifies an assertion against `claims`' challenge, finds the passkey's owner
 * through its account with `provider`, and, only then, claims the counter step
 * and records the challenge used (a refusal writes nothing). With `pending`
 * (the second step of a pending sign-in) the passkey must be that user's, not
 * the one that was the first factor, and
 * user presence is enough: the first factor was the password (or the like),
 * the passkey is the thing held, as a security key without a PIN is. Whether
 * the authenticator verified the user is returned either way.
 */
export async function verifyAssertion(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  response: AuthenticationResponseJSON,
  claims: ChallengeClaims,
  rp: RequestRelyingParty,
  pending?: SecondFactorPending,
): Promise<VerifiedAssertion> {
  const ownerId = pending?.sub
  const authenticator = await callAdapter(ctx.config, "getAuthenticator", response.id)
  if (!authenticator) throw new WebAuthnVerificationError("The passkey is not registered here")
  // Before anything else: another user's passkey (the attacker's own, say) proves nothing about this one.
  if (ownerId !== undefined && authenticator.userId !== ownerId)
    throw new WebAuthnVerificationError("The passkey belongs to another user")
  // The stored id, not the one posted: an adapter whose lookup ignores case finds the same row.
  if (pending && authenticator.credentialID === firstFactorPasskey(pending))
    throw new WebAuthnVerificationError("The passkey was the first factor of this sign-in")
  const result = await verified("sign-in", () =>
    verifyAuthenticationResponse({
      ...authenticationVerification(provider),
      ...(ownerId !== undefined ? { requireUserVerification: false } : {}),
      response,
      expectedChallenge: claims.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: authenticator.credentialID,
        publicKey: fromBase64Url(authenticator.credentialPublicKey),
        counter: authenticator.counter,
        ...(authenticator.transports ? { transports: authenticator.transports.split(",") } : {}),
      },
    }),
  )
  if (!result.verified)
    throw new WebAuthnVerificationError("The passkey sign-in could not be verified")
  const user = await ownerThroughAccount(ctx, provider, authenticator)
  // The library refused a counter that did not go up (a cloned authenticator);
  // authenticators that do not count report 0 every time and need no write.
  const { newCounter } = result.authenticationInfo
  const counts = newCounter !== authenticator.counter
  const swaps = swapsCounter(ctx)
  // The compare-and-set comes before the challenge is recorded used: the sign-in
  // that loses the race (a cloned authenticator) writes nothing at all.
  if (counts && swaps) await swapCounter(ctx, authenticator, newCounter)
  // Without the swap, the step from the stored counter is claimed first, to the same end.
  const unclaim =
    counts && !swaps
      ? await claimCounterStep(ctx, authenticator, provider.challengeMaxAge)
      : undefined
  try {
    await recordChallengeUse(ctx, claims)
    if (counts && !swaps) await raiseCounter(ctx, authenticator, newCounter)
  } catch (error) {
    // The count was not stored: a later sign-in from the same counter must not meet the claim.
    if (unclaim) await unclaim().catch((undoError: Error) => ctx.config.logger.error(undoError))
    throw error
  }
  // Read from the signed authenticator data by the library, not from anything the client says.
  return { user, authenticator, userVerified: result.authenticationInfo.userVerified === true }
}

async function authenticate(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  response: AuthenticationResponseJSON,
  claims: ChallengeClaims,
  rp: RequestRelyingParty,
): Promise<ResponseInternal> {
  const { user, authenticator, userVerified } = await verifyAssertion(
    ctx,
    provider,
    response,
    claims,
    rp,
  )
  const account = {
    type: "webauthn" as const,
    provider: provider.id,
    providerAccountId: authenticator.credentialID,
  }
  return completeSignIn(
    ctx,
    { user, account, webauthn: { kind: "authenticate", user } },
    persistWebAuthn,
    { userVerifiedPasskey: userVerified },
  )
}

/**
 * The assertion posted to `callback/two-factor` (`data`, as the passkey
 * sign-in posts it), verified against the two-factor challenge this browser was
 * given for `pending` (the pending sign-in's user and `jti`): the passkey must
 * be that user's. Refusals are `WebAuthnVerificationError`s.
 */
export async function verifySecondFactorPasskey(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  pending: SecondFactorPending,
): Promise<VerifiedAssertion> {
  const response = parseResponse(ctx.request.body?.data, "authenticate")
  const claims = await consumeChallenge(ctx, provider, "two-factor")
  // Issued to this very wait: not another pending sign-in's challenge, even the same user's.
  if (claims.userId !== pending.sub || claims.pending !== pending.jti)
    throw new WebAuthnVerificationError("The passkey challenge was issued to another sign-in")
  const rp = relyingPartyFor(ctx, provider)
  checkClientData(response.response.clientDataJSON, "authenticate", claims.challenge, rp)
  return verifyAssertion(ctx, provider, response as AuthenticationResponseJSON, claims, rp, pending)
}

export async function webauthnCallback(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
): Promise<ResponseInternal> {
  const parsed = parseBody(ctx)
  const claims = await consumeChallenge(ctx, provider, parsed.action)
  const rp = relyingPartyFor(ctx, provider)
  checkClientData(parsed.response.response.clientDataJSON, parsed.action, claims.challenge, rp)
  return parsed.action === "register"
    ? register(ctx, provider, parsed.response, claims, rp)
    : authenticate(ctx, provider, parsed.response, claims, rp)
}
