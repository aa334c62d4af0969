/**
 * jose's error classes for the token checks, without importing `jose/errors`
 * until a token fails one.
 *
 * Why: `decode`, `getToken` and the session check throw jose's classes for a
 * bad token, as Auth.js's do (apps test for them). Importing `jose/errors` at
 * start-up resolves jose's package and loads its module: about 2.5 ms of every
 * cold start (a fifth of what importing the core costs), for classes a valid
 * session never needs. So the synchronous checks of `jwt/jwe.ts` and
 * `jwt/cbc-hmac.ts` throw a {@link JoseFailure} naming the class, and the
 * asynchronous functions that run them turn it into jose's error with
 * {@link asJoseError}, importing the classes then.
 * @module
 */

/** The jose classes the token checks throw. */
export type JoseErrorClass =
  | "JOSEAlgNotAllowed"
  | "JOSENotSupported"
  | "JWEDecryptionFailed"
  | "JWEInvalid"
  | "JWTInvalid"
  | "JWTClaimValidationFailed"
  | "JWTExpired"

/** A claim check's failure: jose's `claim` and `reason` properties. */
export interface FailedClaim {
  readonly claim: string
  readonly reason: string
}

/** A failed token check, to become jose's `errorClass` (never seen outside this folder). */
export class JoseFailure extends Error {
  override readonly name = "JoseFailure"
  readonly errorClass: JoseErrorClass
  readonly failedClaim: FailedClaim | undefined

  constructor(
    errorClass: JoseErrorClass,
    message?: string,
    options?: { cause?: unknown },
    failedClaim?: FailedClaim,
  ) {
    super(message, options)
    this.errorClass = errorClass
    this.failedClaim = failedClaim
  }
}

/**
 * `error` as jose's class when it is a {@link JoseFailure} (with its message,
 * `cause`, and a claim check's `claim` and `reason`; never a payload, which
 * would hold the decrypted claims), anything else as it is.
 */
export async function asJoseError(error: unknown): Promise<unknown> {
  if (!(error instanceof JoseFailure)) return error
  const errors = await import("jose/errors")
  const { errorClass, failedClaim } = error
  const message = error.message === "" ? undefined : error.message
  if (errorClass === "JWTClaimValidationFailed" || errorClass === "JWTExpired") {
    return new errors[errorClass](message ?? "", {}, failedClaim?.claim, failedClaim?.reason)
  }
  return new errors[errorClass](message, "cause" in error ? { cause: error.cause } : undefined)
}
