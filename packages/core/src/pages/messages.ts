/**
 * Which string the user reads for each documented `error` value (and `code`,
 * where one says more), and on which page. Kept free of detail on purpose:
 * the values come from the URL, so only own keys of these tables count
 * (`?error=toString` finds nothing) and anything unknown gets the generic text.
 * @module
 */
import type { MessageKey } from "./i18n/localization.js"

/** The sign-in page's message for each `error` value Auth.js documents. */
const signInErrors: Record<string, MessageKey> = {
  Signin: "signIn.error.Signin",
  OAuthSignin: "signIn.error.OAuthSignin",
  OAuthCallbackError: "signIn.error.OAuthCallbackError",
  OAuthCreateAccount: "signIn.error.OAuthCreateAccount",
  EmailCreateAccount: "signIn.error.EmailCreateAccount",
  Callback: "signIn.error.Callback",
  OAuthAccountNotLinked: "signIn.error.OAuthAccountNotLinked",
  EmailSignin: "signIn.error.EmailSignin",
  CredentialsSignin: "signIn.error.CredentialsSignin",
  SessionRequired: "signIn.error.SessionRequired",
  // Tessera's own: a rate limit, and a second-factor step that failed or took too long.
  RateLimited: "signIn.error.RateLimited",
  TwoFactor: "signIn.error.TwoFactor",
  TwoFactorExpired: "signIn.error.TwoFactorExpired",
}

/**
 * `error` + `code` pairs with a message of their own (Tessera addition): the
 * provider's `access_denied` (the user cancelled at the IdP, or it refused),
 * and a passkey registration for an address an account already uses.
 */
const detailedSignInErrors: Record<string, MessageKey> = {
  "OAuthCallbackError:access_denied": "signIn.error.OAuthCallbackError.access_denied",
  "OAuthAccountNotLinked:passkey": "signIn.error.OAuthAccountNotLinked.passkey",
}

/** The sign-in page's message for `error` (and `code`), or the generic one. */
export function signInErrorKey(error: string, code: string | undefined): MessageKey {
  const detailed = `${error}:${code}`
  if (code !== undefined && Object.hasOwn(detailedSignInErrors, detailed))
    return detailedSignInErrors[detailed]!
  return Object.hasOwn(signInErrors, error) ? signInErrors[error]! : "signIn.error.default"
}

export interface ErrorPageEntry {
  status: number
  heading: MessageKey
  message: MessageKey
  /** Where the page's button leads: back to sign-in, or out to the app's home page. */
  next: "signIn" | "home"
}

const errorPages: Record<string, ErrorPageEntry> = {
  Configuration: {
    status: 500,
    heading: "error.Configuration.heading",
    message: "error.Configuration.message",
    next: "home",
  },
  AccessDenied: {
    status: 403,
    heading: "error.AccessDenied.heading",
    message: "error.AccessDenied.message",
    next: "signIn",
  },
  Verification: {
    status: 403,
    heading: "error.Verification.heading",
    message: "error.Verification.message",
    next: "signIn",
  },
}

// No error, or one this page does not know: the page itself worked (200, as in Auth.js).
const unknownError: ErrorPageEntry = {
  status: 200,
  heading: "error.default.heading",
  message: "error.default.message",
  next: "signIn",
}

/** The error page for `error`: status, strings and where it leads. */
export function errorPageEntry(error: string | undefined): ErrorPageEntry {
  return error && Object.hasOwn(errorPages, error) ? errorPages[error]! : unknownError
}

/** What a code form (the e-mail code, the two-factor code) shows for each `error` value. */
const codeErrors: Record<string, MessageKey> = {
  Verification: "code.error.Verification",
  TwoFactor: "code.error.TwoFactor",
  RateLimited: "code.error.RateLimited",
}

/** A code form's message for `error`, or the generic one. */
export function codeErrorKey(error: string): MessageKey {
  return Object.hasOwn(codeErrors, error) ? codeErrors[error]! : "code.error.default"
}
