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
  | "InvalidProviderType"
  | "InvalidRequest"
  | "InvalidSecret"
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
  | "SessionTokenError"
  | "SignOutError"
  | "UnknownAction"
  | "UnsupportedStrategy"
  | "UntrustedHost"
  | "Verification"
  | "WebAuthnVerificationError"

/** Where a user is sent when this error ends a flow. */
export type ErrorKind = "signIn" | "error"

/** Options accepted by every error's constructor, as in `Error`, plus free-form context. */
export type ErrorOptions = { cause?: unknown; [key: string]: unknown }

/** The base of all Tessera errors. */
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

/** Errors that end a sign-in attempt and send the user back to the sign-in page. */
export class SignInError extends AuthError {
  static override kind: ErrorKind = "signIn"
}

/** A database adapter method threw. */
export class AdapterError extends AuthError {
  static override type: ErrorType = "AdapterError"
}

/** The `signIn` callback returned `false`, or sign-in was otherwise refused. */
export class AccessDenied extends AuthError {
  static override type: ErrorType = "AccessDenied"
}

/**
 * Something unexpected happened in the callback route: for example `authorize`
 * threw an error that is not a `CredentialsSignin`. The original error is in `cause.err`.
 */
export class CallbackRouteError extends AuthError {
  static override type: ErrorType = "CallbackRouteError"
}

/** The custom error page itself redirected to the error page. */
export class ErrorPageLoop extends AuthError {
  static override type: ErrorType = "ErrorPageLoop"
}

/** An `events` handler threw. Logged; it never breaks the flow that fired it. */
export class EventError extends AuthError {
  static override type: ErrorType = "EventError"
}

/** A callback URL could not be parsed or points outside the application. */
export class InvalidCallbackUrl extends AuthError {
  static override type: ErrorType = "InvalidCallbackUrl"
}

/**
 * Throw this (or a subclass with its own `code`) from `authorize` to reject
 * credentials. The user is sent to the sign-in page with
 * `error=CredentialsSignin&code=<code>`. Keep `code` vague: it must not reveal
 * whether the user name or the password was wrong.
 */
export class CredentialsSignin extends SignInError {
  static override type: ErrorType = "CredentialsSignin"
  /** Appears in the redirect URL as `code`. */
  code = "credentials"
}

/**
 * An option of the configuration cannot work: a malformed `basePath`, a
 * provider option of the wrong kind, an invalid relying party. Found once, when
 * the configuration is first resolved; every request then answers with the
 * `Configuration` error. (Tessera addition.)
 */
export class InvalidConfiguration extends AuthError {
  static override type: ErrorType = "InvalidConfiguration"
}

/** The provider's endpoints are missing or not valid URLs. */
export class InvalidEndpoints extends AuthError {
  static override type: ErrorType = "InvalidEndpoints"
}

/** A PKCE, state or nonce check failed, or its cookie was missing. */
export class InvalidCheck extends AuthError {
  static override type: ErrorType = "InvalidCheck"
}

/** A JWT session cookie could not be decoded, or a `jwt`/`session` callback threw. */
export class JWTSessionError extends AuthError {
  static override type: ErrorType = "JWTSessionError"
}

/** A feature needs a database adapter and none is configured. */
export class MissingAdapter extends AuthError {
  static override type: ErrorType = "MissingAdapter"
}

/** The adapter lacks methods a configured feature needs. */
export class MissingAdapterMethods extends AuthError {
  static override type: ErrorType = "MissingAdapterMethods"
}

/** A credentials provider has no `authorize` function. */
export class MissingAuthorize extends AuthError {
  static override type: ErrorType = "MissingAuthorize"
}

/** No `secret` option and no `AUTH_SECRET`. */
export class MissingSecret extends AuthError {
  static override type: ErrorType = "MissingSecret"
}

/** A secret is shorter than 32 characters. (Tessera addition.) */
export class InvalidSecret extends AuthError {
  static override type: ErrorType = "InvalidSecret"
}

/** Two providers share an id. (Tessera addition.) */
export class DuplicateProviderId extends AuthError {
  static override type: ErrorType = "DuplicateProviderId"
}

/** The e-mail of an OAuth sign-in belongs to a user who has not linked this provider. */
export class OAuthAccountNotLinked extends SignInError {
  static override type: ErrorType = "OAuthAccountNotLinked"
}

/** The provider answered the callback with an error, or a check of its answer failed. */
export class OAuthCallbackError extends SignInError {
  static override type: ErrorType = "OAuthCallbackError"
}

/**
 * The provider misbehaved after the user came back: the token endpoint
 * refused the code exchange (other than a spent code), an ID Token or userinfo
 * response failed validation, the provider could not be reached. The user sees
 * `error=OAuthCallbackError`; the log sees a server fault. (Tessera addition.)
 */
export class OAuthProviderError extends OAuthCallbackError {
  static override type: ErrorType = "OAuthProviderError"
}

/** The provider's profile could not be turned into a user. */
export class OAuthProfileParseError extends AuthError {
  static override type: ErrorType = "OAuthProfileParseError"
}

/** A database session token could not be read. */
export class SessionTokenError extends AuthError {
  static override type: ErrorType = "SessionTokenError"
}

/** Starting an OAuth sign-in failed (building the authorization URL). */
export class OAuthSignInError extends SignInError {
  static override type: ErrorType = "OAuthSignInError"
}

/** Starting an e-mail sign-in failed: bad address, or the message could not be sent. */
export class EmailSignInError extends SignInError {
  static override type: ErrorType = "EmailSignInError"
}

/**
 * The sign-in e-mail could not be sent: the mail server or API refused it.
 * The user sees `error=EmailSignin`; the log sees a server fault. (Tessera addition.)
 */
export class EmailDeliveryError extends EmailSignInError {
  static override type: ErrorType = "EmailDeliveryError"
}

/** Sign-out failed. */
export class SignOutError extends AuthError {
  static override type: ErrorType = "SignOutError"
}

/** The URL names no action Tessera knows, or the method does not fit the action. */
export class UnknownAction extends AuthError {
  static override type: ErrorType = "UnknownAction"
}

/** A malformed request: body, query or cookie that cannot be read. (Tessera addition.) */
export class InvalidRequest extends AuthError {
  static override type: ErrorType = "InvalidRequest"
}

/** The configured session strategy cannot serve this provider. */
export class UnsupportedStrategy extends AuthError {
  static override type: ErrorType = "UnsupportedStrategy"
}

/** A provider has a `type` Tessera does not know. */
export class InvalidProviderType extends AuthError {
  static override type: ErrorType = "InvalidProviderType"
}

/** Host headers were used without `trustHost` / `AUTH_TRUST_HOST`. */
export class UntrustedHost extends AuthError {
  static override type: ErrorType = "UntrustedHost"
}

/** An e-mail sign-in link was already used, expired, or never existed. */
export class Verification extends AuthError {
  static override type: ErrorType = "Verification"
}

/** A state-changing request had no valid CSRF token, or came from another site. */
export class MissingCSRF extends SignInError {
  static override type: ErrorType = "MissingCSRF"
}

/** More than one WebAuthn provider asks for conditional UI. */
export class DuplicateConditionalUI extends AuthError {
  static override type: ErrorType = "DuplicateConditionalUI"
}

/** Conditional UI is on but no form field has `autocomplete="webauthn"`. */
export class MissingWebAuthnAutocomplete extends AuthError {
  static override type: ErrorType = "MissingWebAuthnAutocomplete"
}

/** A WebAuthn registration or authentication response failed verification. */
export class WebAuthnVerificationError extends AuthError {
  static override type: ErrorType = "WebAuthnVerificationError"
}

/** The account is linked to another user. */
export class AccountNotLinked extends SignInError {
  static override type: ErrorType = "AccountNotLinked"
}

/** Kept for Auth.js compatibility: Tessera ships no experimental flags today. */
export class ExperimentalFeatureNotEnabled extends AuthError {
  static override type: ErrorType = "ExperimentalFeatureNotEnabled"
}

/**
 * The value of the `error` query parameter the user sees for each error type,
 * and the page it lands on, from the spec's list: sign-in page `Signin`,
 * `OAuthSignin`, `OAuthCallbackError`, `OAuthCreateAccount`,
 * `EmailCreateAccount`, `Callback`, `OAuthAccountNotLinked`, `EmailSignin`,
 * `CredentialsSignin`, `SessionRequired`; error page `Configuration`,
 * `AccessDenied`, `Verification`. Anything not listed shows as `Configuration`,
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
  "MissingCSRF",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "UnknownAction",
  "UntrustedHost",
  "Verification",
  "WebAuthnVerificationError",
])

/** Where an error sends the user and with which `error` value. */
export function publicErrorOf(error: unknown): { page: ErrorKind; value: string } {
  if (error instanceof AuthError) {
    const known = publicErrorValues[error.type]
    if (known) return known
  }
  return { page: "error", value: "Configuration" }
}

/** True for errors the client caused (safe to show, logged at debug), false for server faults. */
export function isClientError(error: unknown): error is AuthError {
  return error instanceof AuthError && clientErrorTypes.has(error.type)
}
