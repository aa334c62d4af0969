/**
 * Every failure Tessera reports is an {@link AuthError} subclass with a stable
 * `type` (for logs and `switch`es) and a `kind` that decides where the user is
 * sent: `"signIn"` errors land on the sign-in page, `"error"` errors on the
 * error page. Class names and `type` values mirror Auth.js v5.
 *
 * Messages never contain secrets, raw tokens or user input that could carry them.
 *
 * @example
 * ```ts
 * import { CredentialsSignin } from "@tessera/core/errors"
 * class InvalidLogin extends CredentialsSignin { code = "invalid_login" }
 * ```
 * @module
 */

/**
 * The stable `type` of every error class, one per failure: for logs and `switch`es.
 *
 * @see [Auth.js: ErrorType](https://authjs.dev/reference/core/errors#errortype)
 */
export type ErrorType =
  | "AuthError"
  | "AccessDenied"
  | "AccountNotLinked"
  | "AdapterError"
  | "CallbackRouteError"
  | "CredentialsSignin"
  | "DuplicateConditionalUI"
  | "DuplicateProviderId"
  | "EmailDeliveryError"
  | "EmailSignInError"
  | "ErrorPageLoop"
  | "EventError"
  | "ExperimentalFeatureNotEnabled"
  | "InvalidCallbackUrl"
  | "InvalidCheck"
  | "InvalidConfiguration"
  | "InvalidEndpoints"
  | "InvalidProvider"
  | "InvalidProviderType"
  | "InvalidRequest"
  | "InvalidSecret"
  | "InvalidTwoFactorCode"
  | "JWTSessionError"
  | "MissingAdapter"
  | "MissingAdapterMethods"
  | "MissingAuthorize"
  | "MissingCSRF"
  | "MissingSecret"
  | "MissingWebAuthnAutocomplete"
  | "OAuthAccountNotLinked"
  | "OAuthCallbackError"
  | "OAuthProfileParseError"
  | "OAuthProviderError"
  | "OAuthSignInError"
  | "RateLimited"
  | "RecentSignInRequired"
  | "RefreshTokenError"
  | "SessionTokenError"
  | "SignOutError"
  | "TwoFactorExpired"
  | "UnknownAction"
  | "UnsupportedStrategy"
  | "UntrustedHost"
  | "Verification"
  | "WebAuthnVerificationError"

/**
 * Where a user is sent when this error ends a flow.
 *
 * @see {@link publicErrorOf}
 */
export type ErrorKind = "signIn" | "error"

/**
 * Options accepted by every error's constructor, as in `Error`, plus free-form context.
 *
 * @see [ECMAScript: InstallErrorCause](https://tc39.es/ecma262/#sec-installerrorcause)
 */
export type ErrorOptions = { cause?: unknown; [key: string]: unknown }

/**
 * The base of all Tessera errors.
 *
 * @param message The message; or an `ErrorOptions` object; or an `Error`, which becomes the cause
 *   (the shapes Auth.js accepts).
 * @param errorOptions With a string message: `cause` and any context to log.
 * @see [Auth.js: AuthError](https://authjs.dev/reference/core/errors#autherror)
 */
export class AuthError extends Error {
  static type: ErrorType = "AuthError"
  static kind: ErrorKind = "error"
  /** Identifies the error in logs. Stable across releases. */
  type: ErrorType
  /** `"signIn"`: the user lands on the sign-in page; `"error"`: on the error page. */
  kind: ErrorKind
  declare cause?: Record<string, unknown> & { err?: Error }

  constructor(message?: string | ErrorOptions | Error, errorOptions?: ErrorOptions) {
    const [text, options] = normalizeArguments(message, errorOptions)
    super(text, options)
    const ctor = new.target
    this.name = ctor.name
    this.type = ctor.type
    this.kind = ctor.kind
    // V8 only; other runtimes keep the default stack.
    ;(Error as { captureStackTrace?: (target: object, ctor: object) => void }).captureStackTrace?.(
      this,
      new.target,
    )
  }
}

/** Accepts the same argument shapes as Auth.js: `(message)`, `(message, options)`, `(options)`, `(error)`. */
function normalizeArguments(
  message: string | ErrorOptions | Error | undefined,
  errorOptions: ErrorOptions | undefined,
): [string | undefined, { cause?: unknown } | undefined] {
  if (message instanceof Error) {
    return [undefined, { cause: { err: message, ...(errorOptions ?? {}) } }]
  }
  if (typeof message === "string") {
    if (errorOptions instanceof Error) return [message, { cause: { err: errorOptions } }]
    return [message, errorOptions]
  }
  return [undefined, message]
}

/**
 * Errors that end a sign-in attempt and send the user back to the sign-in page.
 *
 * @see [Auth.js: SignInError](https://authjs.dev/reference/core/errors#signinerror)
 */
export class SignInError extends AuthError {
  static override kind: ErrorKind = "signIn"
  /**
   * A detail the user's page may act on, sent with the `error` value as `code`
   * (Auth.js sends one for `CredentialsSignin` only; Tessera also for an OAuth
   * provider's `access_denied` and for a passkey registration refused because
   * an account uses the address, `passkey`). Never secret, never user input.
   */
  declare code?: string
}

/**
 * A database adapter method threw.
 *
 * @see [Auth.js: AdapterError](https://authjs.dev/reference/core/errors#adaptererror)
 */
export class AdapterError extends AuthError {
  static override type: ErrorType = "AdapterError"
}

/**
 * The `signIn` callback returned `false`, or sign-in was otherwise refused.
 *
 * @see [Auth.js: AccessDenied](https://authjs.dev/reference/core/errors#accessdenied)
 */
export class AccessDenied extends AuthError {
  static override type: ErrorType = "AccessDenied"
}

/**
 * Something unexpected happened in the callback route: for example `authorize`
 * threw an error that is not a `CredentialsSignin`. The original error is in `cause.err`.
 *
 * @see [Auth.js: CallbackRouteError](https://authjs.dev/reference/core/errors#callbackrouteerror)
 */
export class CallbackRouteError extends AuthError {
  static override type: ErrorType = "CallbackRouteError"
}

/**
 * The custom error page asks for a sign-in: a broken configuration sent the browser there, it
 * came back to sign in with that page as its `callbackUrl`, and would go round again. Logged
 * (never thrown), as Auth.js does; the browser gets the built-in error page instead.
 *
 * @see [Auth.js: ErrorPageLoop](https://authjs.dev/reference/core/errors#errorpageloop)
 */
export class ErrorPageLoop extends AuthError {
  static override type: ErrorType = "ErrorPageLoop"
}

/**
 * An `events` handler threw. Logged; it never breaks the flow that fired it.
 *
 * @see [Auth.js: EventError](https://authjs.dev/reference/core/errors#eventerror)
 */
export class EventError extends AuthError {
  static override type: ErrorType = "EventError"
}

/**
 * A callback URL could not be parsed or points outside the application.
 *
 * Kept for Auth.js compatibility: Tessera does not throw it. A `callbackUrl` that is neither a
 * path nor an http(s) URL is dropped (the user goes to the app's origin) instead of failing the
 * request (docs/migrating-from-authjs.md).
 *
 * @see [Auth.js: InvalidCallbackUrl](https://authjs.dev/reference/core/errors#invalidcallbackurl)
 * @see [RFC 9700 §4.11, Open Redirection](https://www.rfc-editor.org/rfc/rfc9700.html#section-4.11)
 */
export class InvalidCallbackUrl extends AuthError {
  static override type: ErrorType = "InvalidCallbackUrl"
}

/**
 * Throw this (or a subclass with its own `code`) from `authorize` to reject
 * credentials. The user is sent to the sign-in page with
 * `error=CredentialsSignin&code=<code>`. Keep `code` vague: it must not reveal
 * whether the user name or the password was wrong.
 *
 * @see [Auth.js: CredentialsSignin](https://authjs.dev/reference/core/errors#credentialssignin)
 */
export class CredentialsSignin extends SignInError {
  static override type: ErrorType = "CredentialsSignin"
  /** Appears in the redirect URL as `code`. */
  override code = "credentials"
}

/**
 * An option of the configuration cannot work: a malformed `basePath`, a
 * provider option of the wrong kind, an invalid relying party. Found once, when
 * the configuration is first resolved; every request then answers with the
 * `Configuration` error. (Tessera addition.)
 *
 * @see {@link MissingSecret}, {@link InvalidSecret}, {@link DuplicateProviderId}: the other
 *   problems found when a configuration is resolved
 */
export class InvalidConfiguration extends AuthError {
  static override type: ErrorType = "InvalidConfiguration"
}

/**
 * The provider's endpoints are missing or not valid URLs.
 *
 * @see [Auth.js: InvalidEndpoints](https://authjs.dev/reference/core/errors#invalidendpoints)
 * @see [RFC 8414 §2, Authorization Server Metadata](https://www.rfc-editor.org/rfc/rfc8414.html#section-2)
 */
export class InvalidEndpoints extends AuthError {
  static override type: ErrorType = "InvalidEndpoints"
}

/**
 * A PKCE, state or nonce check failed, or its cookie was missing.
 *
 * @see [Auth.js: InvalidCheck](https://authjs.dev/reference/core/errors#invalidcheck)
 * @see [RFC 7636 §4.6, PKCE: Server Verifies code_verifier](https://www.rfc-editor.org/rfc/rfc7636.html#section-4.6)
 * @see [RFC 6749 §10.12, Cross-Site Request Forgery](https://www.rfc-editor.org/rfc/rfc6749.html#section-10.12) (`state`)
 * @see [OpenID Connect Core 1.0 §15.5.2, Nonce Implementation Notes](https://openid.net/specs/openid-connect-core-1_0.html#NonceNotes)
 */
export class InvalidCheck extends AuthError {
  static override type: ErrorType = "InvalidCheck"
}

/**
 * A JWT session cookie could not be decoded, or a `jwt`/`session` callback threw.
 *
 * @see [Auth.js: JWTSessionError](https://authjs.dev/reference/core/errors#jwtsessionerror)
 * @see [RFC 7516, JSON Web Encryption](https://www.rfc-editor.org/rfc/rfc7516.html)
 */
export class JWTSessionError extends AuthError {
  static override type: ErrorType = "JWTSessionError"
}

/**
 * A feature needs a database adapter and none is configured.
 *
 * @see [Auth.js: MissingAdapter](https://authjs.dev/reference/core/errors#missingadapter)
 */
export class MissingAdapter extends AuthError {
  static override type: ErrorType = "MissingAdapter"
}

/**
 * The adapter lacks methods a configured feature needs.
 *
 * @see [Auth.js: MissingAdapterMethods](https://authjs.dev/reference/core/errors#missingadaptermethods)
 */
export class MissingAdapterMethods extends AuthError {
  static override type: ErrorType = "MissingAdapterMethods"
}

/**
 * A credentials provider has no `authorize` function.
 *
 * @see [Auth.js: MissingAuthorize](https://authjs.dev/reference/core/errors#missingauthorize)
 */
export class MissingAuthorize extends AuthError {
  static override type: ErrorType = "MissingAuthorize"
}

/**
 * No `secret` option and no `AUTH_SECRET`.
 *
 * @see [Auth.js: MissingSecret](https://authjs.dev/reference/core/errors#missingsecret)
 */
export class MissingSecret extends AuthError {
  static override type: ErrorType = "MissingSecret"
}

/**
 * A secret is shorter than 32 characters. (Tessera addition.)
 *
 * @see [RFC 2104 §3, Keys](https://www.rfc-editor.org/rfc/rfc2104.html#section-3) (keys shorter than the hash output are strongly discouraged)
 * @see {@link MissingSecret}
 */
export class InvalidSecret extends AuthError {
  static override type: ErrorType = "InvalidSecret"
}

/**
 * Two providers share an id. (Tessera addition.)
 *
 * @see {@link InvalidConfiguration}
 */
export class DuplicateProviderId extends AuthError {
  static override type: ErrorType = "DuplicateProviderId"
}

/**
 * The e-mail of an OAuth sign-in belongs to a user who has not linked this provider.
 *
 * @see [Auth.js: OAuthAccountNotLinked](https://authjs.dev/reference/core/errors#oauthaccountnotlinked)
 */
export class OAuthAccountNotLinked extends SignInError {
  static override type: ErrorType = "OAuthAccountNotLinked"
}

/**
 * The provider answered the callback with an error, or a check of its answer failed.
 *
 * @see [Auth.js: OAuthCallbackError](https://authjs.dev/reference/core/errors#oauthcallbackerror)
 * @see [RFC 6749 §4.1.2.1, Error Response](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1.2.1)
 */
export class OAuthCallbackError extends SignInError {
  static override type: ErrorType = "OAuthCallbackError"
}

/**
 * The provider misbehaved after the user came back: the token endpoint
 * refused the code exchange (other than a spent code), an ID Token or userinfo
 * response failed validation, the provider could not be reached. The user sees
 * `error=OAuthCallbackError`; the log sees a server fault. (Tessera addition.)
 *
 * @see [RFC 6749 §5.2, Error Response](https://www.rfc-editor.org/rfc/rfc6749.html#section-5.2) (token endpoint)
 * @see [OpenID Connect Core 1.0 §3.1.3.7, ID Token Validation](https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation)
 * @see {@link OAuthCallbackError}
 */
export class OAuthProviderError extends OAuthCallbackError {
  static override type: ErrorType = "OAuthProviderError"
}

/**
 * The provider's profile could not be turned into a user.
 *
 * @see [Auth.js: OAuthProfileParseError](https://authjs.dev/reference/core/errors#oauthprofileparseerror)
 */
export class OAuthProfileParseError extends AuthError {
  static override type: ErrorType = "OAuthProfileParseError"
}

/**
 * A database session token could not be read.
 *
 * @see [Auth.js: SessionTokenError](https://authjs.dev/reference/core/errors#sessiontokenerror)
 */
export class SessionTokenError extends AuthError {
  static override type: ErrorType = "SessionTokenError"
}

/**
 * `getAccessToken` (or `refreshTokenSet`) has no usable token to give: the
 * provider refused the refresh token (`code: "invalid_grant"`; the stored
 * tokens are cleared), there is none (`"no_refresh_token"`), or the user has
 * no account at that provider (`"no_account"`). Ask the user to sign in with
 * the provider again (re-consent). (Tessera addition.)
 *
 * @see [RFC 6749 §5.2, Error Response](https://www.rfc-editor.org/rfc/rfc6749.html#section-5.2) (`invalid_grant`)
 * @see [RFC 6749 §6, Refreshing an Access Token](https://www.rfc-editor.org/rfc/rfc6749.html#section-6)
 */
export class RefreshTokenError extends AuthError {
  static override type: ErrorType = "RefreshTokenError"
  /** What went wrong: `invalid_grant`, `no_refresh_token` or `no_account`. */
  code: "invalid_grant" | "no_refresh_token" | "no_account" = "invalid_grant"
}

/**
 * Starting an OAuth sign-in failed (building the authorization URL).
 *
 * @see [Auth.js: OAuthSignInError](https://authjs.dev/reference/core/errors#oauthsigninerror)
 * @see [RFC 6749 §4.1.1, Authorization Request](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1.1)
 */
export class OAuthSignInError extends SignInError {
  static override type: ErrorType = "OAuthSignInError"
}

/**
 * Starting an e-mail sign-in failed: bad address, or the message could not be sent.
 *
 * @see [Auth.js: EmailSignInError](https://authjs.dev/reference/core/errors#emailsigninerror)
 */
export class EmailSignInError extends SignInError {
  static override type: ErrorType = "EmailSignInError"
}

/**
 * The sign-in e-mail could not be sent: the mail server or API refused it.
 * The user sees `error=EmailSignin`; the log sees a server fault. (Tessera addition.)
 *
 * @see [RFC 5321 §4.2, SMTP Replies](https://www.rfc-editor.org/rfc/rfc5321.html#section-4.2)
 * @see {@link EmailSignInError}
 */
export class EmailDeliveryError extends EmailSignInError {
  static override type: ErrorType = "EmailDeliveryError"
}

/**
 * Sign-out failed.
 *
 * Kept for Auth.js compatibility: Tessera does not throw it; a failure while signing out is
 * reported under its own class (e.g. {@link AdapterError}, {@link EventError}).
 *
 * @see [Auth.js: SignOutError](https://authjs.dev/reference/core/errors#signouterror)
 */
export class SignOutError extends AuthError {
  static override type: ErrorType = "SignOutError"
}

/**
 * The URL names no action Tessera knows, or the method does not fit the action.
 *
 * @see [Auth.js: UnknownAction](https://authjs.dev/reference/core/errors#unknownaction)
 */
export class UnknownAction extends AuthError {
  static override type: ErrorType = "UnknownAction"
}

/**
 * A malformed request: body, query or cookie that cannot be read. (Tessera addition.)
 *
 * @see [RFC 9110 §15.5.1, 400 Bad Request](https://www.rfc-editor.org/rfc/rfc9110.html#section-15.5.1)
 */
export class InvalidRequest extends AuthError {
  static override type: ErrorType = "InvalidRequest"
}

/**
 * The configured session strategy cannot serve this provider.
 *
 * Kept for Auth.js compatibility: Tessera does not throw it. Auth.js throws it for credentials
 * with database sessions, which Tessera supports (docs/migrating-from-authjs.md).
 *
 * @see [Auth.js: UnsupportedStrategy](https://authjs.dev/reference/core/errors#unsupportedstrategy)
 */
export class UnsupportedStrategy extends AuthError {
  static override type: ErrorType = "UnsupportedStrategy"
}

/**
 * A provider is unusable where it is named: Auth.js's class for a callback without a provider
 * or with one of the wrong kind. Tessera answers an unknown provider in the URL with 404 and
 * throws {@link InvalidProviderType} (a subclass) for a provider it cannot run, so
 * `error instanceof InvalidProvider` in app code catches both.
 *
 * @see [Auth.js: InvalidProvider](https://authjs.dev/reference/core/errors#invalidprovider)
 */
export class InvalidProvider extends AuthError {
  static override type: ErrorType = "InvalidProvider"
}

/**
 * A provider has no valid id or a `type` Tessera does not know (found when the
 * configuration is resolved).
 *
 * @see {@link InvalidProvider}
 */
export class InvalidProviderType extends InvalidProvider {
  static override type: ErrorType = "InvalidProviderType"
}

/**
 * Host headers were used without `trustHost` / `AUTH_TRUST_HOST`.
 *
 * @see [Auth.js: UntrustedHost](https://authjs.dev/reference/core/errors#untrustedhost)
 * @see [RFC 7239 §4, Forwarded HTTP Extension](https://www.rfc-editor.org/rfc/rfc7239.html#section-4)
 */
export class UntrustedHost extends AuthError {
  static override type: ErrorType = "UntrustedHost"
}

/**
 * An e-mail sign-in link was already used, expired, or never existed.
 *
 * @see [Auth.js: Verification](https://authjs.dev/reference/core/errors#verification)
 */
export class Verification extends AuthError {
  static override type: ErrorType = "Verification"
}

/**
 * A state-changing request had no valid CSRF token, or came from another site.
 *
 * @see [Auth.js: MissingCSRF](https://authjs.dev/reference/core/errors#missingcsrf)
 * @see [OWASP CSRF Prevention Cheat Sheet: signed double-submit cookie](https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html#signed-double-submit-cookie-recommended)
 * @see [Fetch Metadata Request Headers: Sec-Fetch-Site](https://www.w3.org/TR/fetch-metadata/#sec-fetch-site-header)
 */
export class MissingCSRF extends SignInError {
  static override type: ErrorType = "MissingCSRF"
}

/**
 * More than one WebAuthn provider asks for conditional UI.
 *
 * @see [Auth.js: DuplicateConditionalUI](https://authjs.dev/reference/core/errors#duplicateconditionalui)
 * @see [Credential Management Level 1: conditional mediation](https://www.w3.org/TR/credential-management-1/#dom-credentialmediationrequirement-conditional)
 */
export class DuplicateConditionalUI extends AuthError {
  static override type: ErrorType = "DuplicateConditionalUI"
}

/**
 * Conditional UI is on but no form field has `autocomplete="webauthn"`.
 *
 * @see [Auth.js: MissingWebAuthnAutocomplete](https://authjs.dev/reference/core/errors#missingwebauthnautocomplete)
 * @see [HTML: autofill, the `webauthn` token](https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#autofill)
 */
export class MissingWebAuthnAutocomplete extends AuthError {
  static override type: ErrorType = "MissingWebAuthnAutocomplete"
}

/**
 * A WebAuthn registration or authentication response failed verification.
 *
 * @see [Auth.js: WebAuthnVerificationError](https://authjs.dev/reference/core/errors#webauthnverificationerror)
 * @see [Web Authentication Level 3 §7.1, Registering a New Credential](https://www.w3.org/TR/webauthn-3/#sctn-registering-a-new-credential)
 * @see [Web Authentication Level 3 §7.2, Verifying an Authentication Assertion](https://www.w3.org/TR/webauthn-3/#sctn-verifying-assertion)
 */
export class WebAuthnVerificationError extends AuthError {
  static override type: ErrorType = "WebAuthnVerificationError"
}

/**
 * The account is linked to another user.
 *
 * @see [Auth.js: AccountNotLinked](https://authjs.dev/reference/core/errors#accountnotlinked)
 */
export class AccountNotLinked extends SignInError {
  static override type: ErrorType = "AccountNotLinked"
}

/**
 * Too many attempts: a rate limit of the `rateLimit` option refused the request
 * before anything was checked. JSON actions answer 429 with `Retry-After`;
 * pages land on the sign-in page (or the page of the step that was limited)
 * with `error=RateLimited`. (Tessera addition.)
 *
 * @see [RFC 6585 §4, 429 Too Many Requests](https://www.rfc-editor.org/rfc/rfc6585.html#section-4)
 */
export class RateLimited extends SignInError {
  static override type: ErrorType = "RateLimited"
  /** Seconds until the limit allows another attempt (the `Retry-After` value). */
  retryAfter = 1
}

/**
 * A second-factor code (authenticator app or recovery code) was wrong, used
 * already, or missing. The user lands on the two-factor page with
 * `error=TwoFactor`. (Tessera addition.)
 *
 * @see [RFC 6238 §5.2, Validation and Time-Step Size](https://www.rfc-editor.org/rfc/rfc6238.html#section-5.2)
 */
export class InvalidTwoFactorCode extends SignInError {
  static override type: ErrorType = "InvalidTwoFactorCode"
}

/**
 * The sign-in waiting for its second factor is missing or has expired: the
 * user starts again, on the sign-in page with `error=TwoFactorExpired`.
 * (Tessera addition.)
 *
 * @see {@link InvalidTwoFactorCode}
 */
export class TwoFactorExpired extends SignInError {
  static override type: ErrorType = "TwoFactorExpired"
}

/**
 * The session is signed in, but not recently enough for what it asked: adding
 * a sign-in method (a passkey) or setting up a second factor needs a sign-in
 * within `session.recentSignInAge`, so a copied session cookie cannot be
 * turned into lasting access. Answered 403 `{ error: "RecentSignInRequired" }`
 * to scripts; a browser linking an OAuth account lands on the sign-in page
 * with `error=SessionRequired`. The user signs in again. (Tessera addition:
 * Auth.js has no such check.)
 *
 * @see [OWASP: Require re-authentication for sensitive features](https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#reauthentication-after-risk-events)
 */
export class RecentSignInRequired extends SignInError {
  static override type: ErrorType = "RecentSignInRequired"
}

/**
 * Kept for Auth.js compatibility: Tessera ships no experimental flags today.
 *
 * @see [Auth.js: ExperimentalFeatureNotEnabled](https://authjs.dev/reference/core/errors#experimentalfeaturenotenabled)
 */
export class ExperimentalFeatureNotEnabled extends AuthError {
  static override type: ErrorType = "ExperimentalFeatureNotEnabled"
}

/**
 * The value of the `error` query parameter the user sees for each error type,
 * and the page it lands on, from the spec's list: sign-in page `Signin`,
 * `OAuthSignin`, `OAuthCallbackError`, `OAuthCreateAccount`,
 * `EmailCreateAccount`, `Callback`, `OAuthAccountNotLinked`, `EmailSignin`,
 * `CredentialsSignin`, `SessionRequired`; error page `Configuration`,
 * `AccessDenied`, `Verification`; and Tessera's own `RateLimited`,
 * `TwoFactor` and `TwoFactorExpired`. Anything not listed shows as `Configuration`,
 * so no detail leaks. (This table, not `kind`, decides where a user lands:
 * `kind` keeps Auth.js's values for compatibility.)
 */
const publicErrorValues: Partial<Record<ErrorType, { page: ErrorKind; value: string }>> = {
  AccessDenied: { page: "error", value: "AccessDenied" },
  Verification: { page: "error", value: "Verification" },
  CredentialsSignin: { page: "signIn", value: "CredentialsSignin" },
  OAuthAccountNotLinked: { page: "signIn", value: "OAuthAccountNotLinked" },
  AccountNotLinked: { page: "signIn", value: "OAuthAccountNotLinked" },
  OAuthCallbackError: { page: "signIn", value: "OAuthCallbackError" },
  OAuthProviderError: { page: "signIn", value: "OAuthCallbackError" },
  InvalidCheck: { page: "signIn", value: "OAuthCallbackError" },
  OAuthSignInError: { page: "signIn", value: "OAuthSignin" },
  EmailSignInError: { page: "signIn", value: "EmailSignin" },
  EmailDeliveryError: { page: "signIn", value: "EmailSignin" },
  MissingCSRF: { page: "signIn", value: "Signin" },
  WebAuthnVerificationError: { page: "signIn", value: "Callback" },
  RateLimited: { page: "signIn", value: "RateLimited" },
  InvalidTwoFactorCode: { page: "signIn", value: "TwoFactor" },
  TwoFactorExpired: { page: "signIn", value: "TwoFactorExpired" },
  RecentSignInRequired: { page: "signIn", value: "SessionRequired" },
}

/**
 * Failures the client's request caused: a bad or forged request, a wrong
 * password, a used link, a refused check, a sign-in the app or the user
 * declined. Logged at debug level and answered 4xx; every other error is a
 * server fault (configuration, database, a provider misbehaving), logged at
 * error level.
 */
const clientErrorTypes: ReadonlySet<ErrorType> = new Set<ErrorType>([
  "AccessDenied",
  "AccountNotLinked",
  "CredentialsSignin",
  "EmailSignInError",
  "InvalidCheck",
  "InvalidRequest",
  "InvalidTwoFactorCode",
  "MissingCSRF",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "RateLimited",
  "RecentSignInRequired",
  "TwoFactorExpired",
  "UnknownAction",
  "UntrustedHost",
  "Verification",
  "WebAuthnVerificationError",
])

/**
 * Where an error sends the user, with which `error` value and, for a sign-in
 * error that has one, which `code` (see {@link SignInError.code}).
 *
 * @param error Anything thrown.
 * @see {@link ErrorType}
 */
export function publicErrorOf(error: unknown): { page: ErrorKind; value: string; code?: string } {
  if (error instanceof AuthError) {
    const known = publicErrorValues[error.type]
    if (known) {
      const code = error instanceof SignInError ? error.code : undefined
      return typeof code === "string" ? { ...known, code } : known
    }
  }
  return { page: "error", value: "Configuration" }
}

/**
 * True for errors the client caused (safe to show, logged at debug), false for server faults.
 *
 * @param error Anything thrown.
 * @see {@link publicErrorOf}
 */
export function isClientError(error: unknown): error is AuthError {
  return error instanceof AuthError && clientErrorTypes.has(error.type)
}
