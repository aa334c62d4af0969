/** What the user reads for each documented `error` value. Kept free of detail on purpose. */
export const signInErrorMessages: Record<string, string> = {
  Signin: "Try signing in with a different account.",
  OAuthSignin: "Try signing in with a different account.",
  OAuthCallbackError: "Try signing in with a different account.",
  OAuthCreateAccount: "Try signing in with a different account.",
  EmailCreateAccount: "Try signing in with a different account.",
  Callback: "Try signing in with a different account.",
  OAuthAccountNotLinked:
    "To confirm your identity, sign in with the same account you used originally.",
  EmailSignin: "The e-mail could not be sent. Check the address and try again.",
  CredentialsSignin: "Sign in failed. Check the details you provided are correct.",
  SessionRequired: "Please sign in to access this page.",
  RateLimited: "Too many attempts. Wait a few minutes, then try again.",
  TwoFactorExpired: "The sign-in took too long. Please sign in again.",
  TwoFactor: "The second-factor code did not work. Please sign in again.",
  default: "Unable to sign in.",
}

export const errorPageMessages: Record<
  string,
  { status: number; heading: string; message: string; signInLink?: boolean }
> = {
  Configuration: {
    status: 500,
    heading: "Server error",
    message:
      "There is a problem with the server configuration. Check the server logs for more information.",
  },
  AccessDenied: {
    status: 403,
    heading: "Access denied",
    message: "You do not have permission to sign in.",
    signInLink: true,
  },
  Verification: {
    status: 403,
    heading: "Unable to sign in",
    message:
      "The sign in link is no longer valid. It may have been used already or it may have expired.",
    signInLink: true,
  },
  // No error, or one this page does not know: the page itself worked (200, as in Auth.js).
  default: {
    status: 200,
    heading: "Error",
    message: "Something went wrong while signing in.",
    signInLink: true,
  },
}

/**
 * The strings of the pages added for abuse protection and second factors, in
 * one place so a translation can replace them together.
 */
export const pageText = {
  verifyRequest: {
    title: "Verify Request",
    heading: "Check your email",
    link: "A sign in link has been sent to your email address.",
    code: "We sent a sign-in code to your email address. Enter it below.",
    emailLabel: "Email",
    codeLabel: "Sign-in code",
    submit: "Sign in",
  },
  confirmLink: {
    title: "Sign In",
    heading: "Sign in",
    /** Followed by the address, in bold. */
    prompt: "Sign in as",
    submit: "Sign in",
    note: "This link works once. If you did not ask to sign in, close this page.",
  },
  twoFactor: {
    title: "Two-Factor Authentication",
    heading: "Two-factor authentication",
    prompt: "Enter the 6-digit code from your authenticator app, or one of your recovery codes.",
    codeLabel: "Code",
    submit: "Verify",
    startOver: "Sign in again",
  },
} as const

/** What a code form shows for each `error` value. */
export const codeErrorMessages: Record<string, string> = {
  Verification: "That code did not work. Check it, or request a new one.",
  TwoFactor: "That code did not work. Try again.",
  RateLimited: "Too many attempts. Wait a few minutes, then try again.",
  default: "That did not work. Try again.",
}
