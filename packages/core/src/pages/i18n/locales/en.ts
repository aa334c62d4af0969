/**
 * English: the reference catalog. Its keys are the message keys (`MessageKey`);
 * every other catalog has the same keys, and a string missing from an
 * override falls back to the built-in catalog of its language, then to this one.
 *
 * Strings are plain text (the pages escape them); `{name}` marks a value filled
 * in when the string is used. Adding a key here (a new page, a new error) means
 * adding it to every catalog in this folder: the type check lists the ones
 * that lack it.
 * @module
 */
const en = {
  // Sign-in page
  "signIn.title": "Sign in",
  "signIn.with": "Sign in with {provider}",
  "signIn.or": "or",
  "signIn.pending": "Signing in…",
  "signIn.error.Signin":
    "The sign-in form expired, or your browser blocked its cookie. Reload the page and try again.",
  "signIn.error.OAuthSignin":
    "Signing in with that provider could not be started. Try again, or choose another way to sign in.",
  "signIn.error.OAuthCallbackError":
    "Signing in with that provider did not work. Try again, or choose another way to sign in.",
  "signIn.error.OAuthCallbackError.access_denied":
    "Sign-in was cancelled, or the provider refused it. Try again, or choose another way to sign in.",
  "signIn.error.OAuthCreateAccount":
    "Your account could not be created. Try again, or choose another way to sign in.",
  "signIn.error.EmailCreateAccount":
    "Your account could not be created. Try again, or choose another way to sign in.",
  "signIn.error.Callback": "Sign-in did not work. Try again, or choose another way to sign in.",
  "signIn.error.OAuthAccountNotLinked":
    "This email address already belongs to an account. Sign in the way you did before, then link this sign-in method from your account.",
  "signIn.error.OAuthAccountNotLinked.passkey":
    "An account already uses this email address. Sign in to it first (with its passkey or an email link), then add a new passkey from your account.",
  "signIn.error.EmailSignin": "The email could not be sent. Check the address and try again.",
  "signIn.error.CredentialsSignin":
    "Sign-in failed. Check that the details you entered are correct.",
  "signIn.error.SessionRequired": "Please sign in to access this page.",
  "signIn.error.RateLimited": "Too many attempts. Wait a few minutes, then try again.",
  "signIn.error.TwoFactor": "The second-factor code did not work. Sign in again.",
  "signIn.error.TwoFactorExpired": "The sign-in took too long. Sign in again.",
  "signIn.error.default": "Unable to sign in. Try again, or choose another way to sign in.",

  // E-mail link (the sign-in page's field and button)
  "email.label": "Email",
  "email.placeholder": "email@example.com",
  "email.submit": "Send sign-in link",
  "email.pending": "Sending…",

  // Passkeys (the button, and what the passkey script shows)
  "passkey.submit": "Sign in with a passkey",
  "passkey.pending": "Waiting for your passkey…",
  "passkey.unsupported": "This browser does not support passkeys. Choose another way to sign in.",
  "passkey.cancelled": "The passkey request was cancelled or timed out. Try again.",
  "passkey.registered": "This device already has a passkey for this account. Use it to sign in.",
  "passkey.failed": "Passkey sign-in failed. Try again, or choose another way to sign in.",
  "passkey.ipAddress":
    "Passkeys don't work at an IP address such as {host}. Open this page at localhost or at the site's domain name instead.",

  // Sign-out page
  "signOut.title": "Sign out",
  "signOut.confirm": "Are you sure you want to sign out?",
  "signOut.submit": "Sign out",
  "signOut.pending": "Signing out…",
  "signOut.cancel": "Cancel",
  "signOut.signedOut": "You are not signed in.",
  "signOut.back": "Go back",
  "signOut.signIn": "Sign in",

  // Verify-request page (after an e-mail link was sent)
  "verifyRequest.title": "Check your email",
  "verifyRequest.message":
    "A sign-in link has been sent to your email address. Open it to sign in; you can close this page.",
  "verifyRequest.back": "Back to {host}",
  "verifyRequest.code": "We sent a sign-in code to your email address. Enter it below.",
  "verifyRequest.codeLabel": "Sign-in code",
  "verifyRequest.submit": "Sign in",

  // The page a mailed link opens when the provider has confirmLink
  "confirmLink.title": "Sign in",
  "confirmLink.prompt": "Sign in as {email}",
  "confirmLink.submit": "Sign in",
  "confirmLink.note": "This link works once. If you did not ask to sign in, close this page.",

  // The two-factor page (after the first factor)
  "twoFactor.title": "Two-factor authentication",
  "twoFactor.prompt":
    "Enter the 6-digit code from your authenticator app, or one of your recovery codes.",
  "twoFactor.codeLabel": "Code",
  "twoFactor.submit": "Verify",
  "twoFactor.pending": "Verifying…",
  "twoFactor.startOver": "Sign in again",
  "twoFactor.passkey": "Use a passkey",

  // What a code form (e-mail code, two-factor code) says when the code did not work
  "code.error.Verification": "That code did not work. Check it, or request a new one.",
  "code.error.TwoFactor": "That code did not work. Try again.",
  "code.error.RateLimited": "Too many attempts. Wait a few minutes, then try again.",
  "code.error.default": "That did not work. Try again.",

  // Error page
  "error.Configuration.heading": "Server error",
  "error.Configuration.message":
    "There is a problem with the server configuration. Check the server logs for more information.",
  "error.AccessDenied.heading": "Access denied",
  "error.AccessDenied.message":
    "You do not have permission to sign in. If you think this is a mistake, contact the site's owner, or sign in with another account.",
  "error.Verification.heading": "Unable to sign in",
  "error.Verification.message":
    "The sign-in link is no longer valid. It may have been used already or it may have expired. Sign in again to get a new one.",
  "error.default.heading": "Error",
  "error.default.message": "Something went wrong while signing in. Please try again.",
  "error.signIn": "Sign in",
  "error.home": "Go to the home page",

  // The sign-in e-mail
  "mail.subject": "Sign in to {host}",
  "mail.heading": "Sign in to {host}",
  "mail.button": "Sign in",
  "mail.ignore": "If you did not request this email, you can safely ignore it.",
  "mail.code": "Your sign-in code:",
  "mail.or": "or",
  "mail.orLink": "Or sign in with this link:",
  "mail.codeOnce": "The code works once, for 10 minutes.",
}

export default en
