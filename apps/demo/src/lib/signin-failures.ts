/**
 * What the demo's sign-in page says when a sign-in failed, for each `error` value Tessera sends
 * a failure to the sign-in page with (Auth.js's values), and which part of the page says it.
 * Only these fixed texts are shown: the `error` query value itself never reaches the page.
 * @module
 */

/** The card of the sign-in page a message belongs to; `page` is above all of them. */
export type SignInSection = "credentials" | "email" | "passkey" | "providers" | "page"

export interface SignInFailure {
  section: SignInSection
  message: string
}

const FAILURES: Record<string, SignInFailure> = {
  CredentialsSignin: {
    section: "credentials",
    message: "That e-mail address and password do not match a demo account.",
  },
  EmailSignin: {
    section: "email",
    message: "The sign-in link could not be sent. Check the e-mail address.",
  },
  OAuthAccountNotLinked: {
    section: "providers",
    message:
      "That e-mail address already belongs to an account here. Sign in the way you did before, then link this provider from your account page.",
  },
  OAuthCallbackError: {
    section: "providers",
    message: "The identity provider did not sign you in (cancelled, or it failed). Try again.",
  },
  OAuthSignin: {
    section: "providers",
    message: "The identity provider could not be reached. Try again later.",
  },
  OAuthCreateAccount: {
    section: "providers",
    message: "No account could be made for that identity. Try another way to sign in.",
  },
  Callback: {
    section: "passkey",
    message: "The passkey was not accepted.",
  },
  SessionRequired: { section: "page", message: "Sign in to see that page." },
}

/** The message for an `error` value; a general one for any other value. */
export function signInFailure(error: string): SignInFailure {
  // Own keys only: the value is the query's, and `constructor` or `toString` would find Object's.
  return Object.hasOwn(FAILURES, error)
    ? FAILURES[error]!
    : { section: "page", message: "Signing in did not work. Please try again." }
}
