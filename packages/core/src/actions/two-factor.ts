/**
 * The two-factor routes under `basePath`:
 *
 * - `GET two-factor`: the page asking for the code after the first factor
 *   (or `pages.twoFactor`);
 * - for the signed-in user, JSON, CSRF-protected: `POST two-factor/setup`
 *   -> `{ secret, uri, qr, recoveryCodes }` (a new key, not active until
 *   confirmed); `POST two-factor/enable` with `code` -> active;
 *   `POST two-factor/disable` with a current `code` (or a recovery code);
 *   `GET two-factor/status` -> `{ enabled, pending }`.
 *
 * A request from someone not signed in gets 401 `SessionRequired`; with
 * second factors off, every route is 404.
 * @module
 */
import { encodeBase32UpperCaseNoPadding } from "@oslojs/encoding"
import type { RequestContext } from "../context.js"
import { InvalidRequest, InvalidTwoFactorCode, UnknownAction } from "../errors.js"
import { ensureCsrfToken } from "../http/csrf.js"
import { RequestError } from "../http/request.js"
import { noStoreHeaders } from "../http/response.js"
import { actionUrl, appPageUrl, signInPageUrl } from "../http/urls.js"
import { callAdapter } from "../lib/adapter.js"
import { html } from "../pages/html.js"
import type { PageContext } from "../pages/layout.js"
import { pageContextOf } from "../pages/page-context.js"
import { renderTwoFactorPage } from "../pages/two-factor.js"
import { sessionStrategy } from "../session/index.js"
import type { ResponseInternal } from "../types.js"
import { TWO_FACTOR_ID } from "../two-factor/id.js"
import { secondFactorFlows } from "../two-factor/passkeys.js"
import { readPending, type PendingClaims } from "../two-factor/pending.js"
import { newRecoveryCodes, recoveryCodeHashes } from "../two-factor/recovery.js"
import { sealKey } from "../two-factor/secret-box.js"
import { keyUri, newTotpKey, readTotp } from "../two-factor/totp.js"
import { verifySecondFactor } from "../two-factor/verify.js"

function requireTwoFactor(ctx: RequestContext) {
  const settings = ctx.config.twoFactor
  // Says what turns them on: a developer trying the routes sees this, not a page.
  if (!settings)
    throw new RequestError(
      new UnknownAction(
        "Second factors are not enabled: they need an adapter that stores them (`adapter`), and `twoFactor: false` turns them off",
      ),
      404,
    )
  return settings
}

const sessionRequired: ResponseInternal = {
  status: 401,
  headers: noStoreHeaders,
  body: { error: "SessionRequired" },
}

const json = (body: Record<string, unknown>): ResponseInternal => ({
  headers: noStoreHeaders,
  body,
})

/** GET two-factor: the code form, for a browser with a pending sign-in. */
export async function twoFactorPage(ctx: RequestContext): Promise<ResponseInternal> {
  requireTwoFactor(ctx)
  const { error } = ctx.request.query
  const custom = ctx.config.pages.twoFactor
  if (custom) return { redirect: appPageUrl(ctx, custom, { error }) }
  const pending = await readPending(ctx)
  if (!pending) {
    return { redirect: appPageUrl(ctx, signInPageUrl(ctx), { error: "TwoFactorExpired" }) }
  }
  const csrfToken = await ensureCsrfToken(ctx)
  const page = await pageContextOf(ctx)
  const passkeys = await passkeyButtons(ctx, pending, page)
  return renderTwoFactorPage(ctx, page, {
    action: actionUrl(ctx, "callback", TWO_FACTOR_ID),
    csrfToken,
    signInUrl: signInPageUrl(ctx),
    error,
    ...(passkeys ? { passkeys } : {}),
  })
}

/**
 * A "Use a passkey" button per WebAuthn provider through which the pending
 * user has a passkey; `undefined` when there is none (the passkey code is then
 * not loaded).
 */
async function passkeyButtons(ctx: RequestContext, pending: PendingClaims, page: PageContext) {
  const usable = []
  for (const flow of secondFactorFlows(ctx)) {
    if (await flow.secondFactor!.available(ctx, pending)) usable.push(flow)
  }
  if (!usable.length) return undefined
  const here = actionUrl(ctx, "two-factor")
  // One head per flow type (the passkey script), as on the sign-in page.
  const heads = new Set(usable.map((flow) => flow.head).filter((head) => head !== undefined))
  return {
    buttons: html`${usable.map((flow) => flow.secondFactor!.button(ctx, page.t, here))}`,
    head: (nonce: string) => html`${[...heads].map((head) => head(ctx, nonce))}`,
  }
}

/** GET two-factor/status. */
export async function twoFactorStatus(ctx: RequestContext): Promise<ResponseInternal> {
  requireTwoFactor(ctx)
  const userId = await sessionStrategy(ctx).currentUserId(ctx)
  if (!userId) return sessionRequired
  const factor = await callAdapter(ctx.config, "getTwoFactor", userId)
  return json({ enabled: !!factor?.enabledAt, pending: !!factor && !factor.enabledAt })
}

/** POST two-factor/setup: a new key and recovery codes, shown this once. */
export async function twoFactorSetup(ctx: RequestContext): Promise<ResponseInternal> {
  const settings = requireTwoFactor(ctx)
  const { config } = ctx
  const userId = await sessionStrategy(ctx).currentUserId(ctx)
  if (!userId) return sessionRequired
  const user = await callAdapter(config, "getUser", userId)
  const key = newTotpKey()
  const recoveryCodes = newRecoveryCodes()
  const hashes = await Promise.all(
    recoveryCodes.map(async (code) => (await recoveryCodeHashes(config, userId, code))[0]!),
  )
  const created = await callAdapter(
    config,
    "createTwoFactor",
    {
      userId,
      secret: await sealKey(config.keys, userId, key),
      enabledAt: null,
      lastUsedStep: null,
    },
    hashes,
  )
  if (!created) {
    return {
      status: 409,
      headers: noStoreHeaders,
      body: {
        error: "TwoFactorEnabled",
        message: "Disable the second factor before setting up a new one",
      },
    }
  }
  const issuer = settings.issuer ?? new URL(ctx.origin).host
  const uri = keyUri(issuer, user?.email ?? user?.name ?? userId, key)
  const { qrDataUrl } = await import("../two-factor/qr.js")
  return json({
    secret: encodeBase32UpperCaseNoPadding(key),
    uri,
    qr: qrDataUrl(uri),
    recoveryCodes,
  })
}

const keyReplaced =
  "No second factor is waiting to be confirmed: it was confirmed or replaced meanwhile; set it up again"

/** POST two-factor/enable with `code`: confirms the key set up last. */
export async function twoFactorEnable(ctx: RequestContext): Promise<ResponseInternal> {
  requireTwoFactor(ctx)
  const { config } = ctx
  const userId = await sessionStrategy(ctx).currentUserId(ctx)
  if (!userId) return sessionRequired
  const factor = await callAdapter(config, "getTwoFactor", userId)
  if (!factor || factor.enabledAt) {
    throw new RequestError(new InvalidRequest("No second factor is waiting to be confirmed"), 400)
  }
  // Confirming proves the app holds the key: a TOTP code only, not a recovery code.
  const code =
    typeof ctx.request.body?.code === "string" ? readTotp(ctx.request.body.code) : undefined
  if (!code) throw new InvalidTwoFactorCode("The code is not 6 digits")
  await verifySecondFactor(ctx, factor, code, { recoveryCodes: false })
  // Only the key whose code was checked: another session of the user may have
  // set up a new one since `getTwoFactor`, and nobody proved holding that one.
  const enabled = await callAdapter(config, "enableTwoFactor", userId, factor.secret)
  if (!enabled) throw new RequestError(new InvalidRequest(keyReplaced), 400)
  if (enabled.secret !== factor.secret) {
    // An adapter that ignores `secret` enabled the newer key: undo, it was never confirmed.
    await callAdapter(config, "deleteTwoFactor", userId)
    throw new RequestError(new InvalidRequest(keyReplaced), 400)
  }
  return json({ enabled: true })
}

/** POST two-factor/disable with a current `code` (or a recovery code). */
export async function twoFactorDisable(ctx: RequestContext): Promise<ResponseInternal> {
  requireTwoFactor(ctx)
  const { config } = ctx
  const userId = await sessionStrategy(ctx).currentUserId(ctx)
  if (!userId) return sessionRequired
  const factor = await callAdapter(config, "getTwoFactor", userId)
  if (!factor?.enabledAt) {
    throw new RequestError(new InvalidRequest("No second factor is enabled"), 400)
  }
  await verifySecondFactor(ctx, factor, ctx.request.body?.code, { recoveryCodes: true })
  await callAdapter(config, "deleteTwoFactor", userId)
  return json({ enabled: false })
}
