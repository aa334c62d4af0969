/**
 * oauth4webapi failures -> Tessera errors.
 *
 * Following Auth.js, every failure of the callback, including an error the
 * provider sends back (`access_denied` when the user cancels), is an
 * `OAuthCallbackError` (or `InvalidCheck` for state/PKCE/nonce): the user lands
 * on the sign-in page with `error=OAuthCallbackError` and can try again. A
 * cancelled sign-in adds `code=access_denied`, so the page can say so.
 * `AccessDenied` stays reserved for the application's own refusal (the
 * `signIn` callback).
 *
 * oauth4webapi errors carry the whole response (tokens, codes) in `cause`;
 * only a summary made here is kept, so no logger ever sees a token.
 * @module
 */
import * as o from "oauth4webapi"
import {
  AuthError,
  InvalidCheck,
  OAuthCallbackError,
  OAuthProviderError,
  OAuthSignInError,
} from "../../errors.js"

/** Provider-sent text is logged, so it is cut short and stripped of control characters. */
function clean(text: unknown, max = 200): string | undefined {
  if (typeof text !== "string") return undefined
  return text.replace(/[\u0000-\u001f\u007f]/g, " ").slice(0, max)
}

/**
 * An error's message, logged: a provider module's message may quote what the
 * provider answered (an error text), which must not start a log line of its own.
 */
function messageOf(error: Error): string {
  return clean(error.message, 500) ?? ""
}

/** A cause safe to log: the error's class, code and message, nothing it referenced. */
export function summary(error: Error): Error {
  const safe = new Error(messageOf(error))
  safe.name = error.name
  const code = (error as { code?: unknown }).code
  if (typeof code === "string") (safe as Error & { code?: string }).code = code
  safe.stack = `${error.name}: ${safe.message}`
  return safe
}

function claimOf(error: o.OperationProcessingError): string | undefined {
  const cause = error.cause as { claim?: unknown; attribute?: unknown } | undefined
  const claim = cause?.claim ?? cause?.attribute
  return typeof claim === "string" ? claim : undefined
}

/**
 * Maps anything thrown while processing a callback to an `AuthError` that is
 * safe to log. What the user's side caused (the provider's authorization error,
 * such as a cancelled sign-in, or a code that was already spent) is an
 * `OAuthCallbackError`; what the provider's side did wrong (a refused client,
 * an invalid ID Token, an unreachable endpoint) an `OAuthProviderError`.
 */
export function callbackFailure(providerId: string, error: unknown): AuthError {
  if (error instanceof AuthError) return error
  if (error instanceof o.AuthorizationResponseError) {
    const code = clean(error.error) ?? "unknown"
    const failure = new OAuthCallbackError(
      `Provider "${providerId}" answered the authorization request with error "${code}"`,
      {
        cause: {
          err: summary(error),
          provider: providerId,
          error: code,
          error_description: clean(error.error_description),
        },
      },
    )
    // The user cancelled at the provider (or it refused them): the sign-in page says so.
    if (code === "access_denied") failure.code = code
    return failure
  }
  if (error instanceof o.ResponseBodyError) {
    const code = clean(error.error) ?? "unknown"
    // A spent or forged code is the client's doing; anything else the token endpoint refuses is not.
    const Class = code === "invalid_grant" ? OAuthCallbackError : OAuthProviderError
    return new Class(`Provider "${providerId}" answered ${error.status} with error "${code}"`, {
      cause: {
        err: summary(error),
        provider: providerId,
        error: code,
        error_description: clean(error.error_description),
      },
    })
  }
  if (error instanceof o.OperationProcessingError) {
    const claim = claimOf(error)
    // A nonce that does not match is a failed check, like state and PKCE.
    const Class = claim === "nonce" ? InvalidCheck : OAuthProviderError
    return new Class(`Provider "${providerId}": ${error.message}${claim ? ` (${claim})` : ""}`, {
      cause: { err: summary(error), provider: providerId, code: error.code },
    })
  }
  if (error instanceof o.WWWAuthenticateChallengeError) {
    return new OAuthProviderError(
      `Provider "${providerId}" refused the request (${error.status}, WWW-Authenticate challenge)`,
      {
        cause: { err: summary(error), provider: providerId },
      },
    )
  }
  if (error instanceof Error) {
    return new OAuthProviderError(`Provider "${providerId}": ${messageOf(error)}`, {
      cause: { err: summary(error), provider: providerId },
    })
  }
  return new OAuthProviderError(`Provider "${providerId}": the callback failed`)
}

/** Maps anything thrown while starting a sign-in (metadata discovery) to `OAuthSignInError`. */
export function signInFailure(providerId: string, error: unknown): AuthError {
  if (error instanceof AuthError) return error
  const err = error instanceof Error ? summary(error) : new Error(String(error))
  return new OAuthSignInError(
    `Provider "${providerId}": could not prepare the authorization request (${err.message})`,
    {
      cause: { err, provider: providerId },
    },
  )
}
