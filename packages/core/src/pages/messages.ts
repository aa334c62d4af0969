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
