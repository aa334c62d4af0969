/**
 * Asking the app's `signIn` callback, the same way for every flow (and for
 * the e-mail flow before it sends a link): any falsy answer refuses, a thrown
 * error refuses too (`AccessDenied`, the cause kept for the log; a `CredentialsSignin` in a
 * credentials sign-in stays itself, with its `code`), a string is
 * where to send the user instead, through the `redirect` callback.
 * @module
 */
import type { RequestContext } from "../../context.js"
import { AccessDenied, AuthError, CredentialsSignin } from "../../errors.js"
import type { CallbacksOptions, ResponseInternal } from "../../types.js"

/** `undefined` to go on with the sign-in; otherwise the redirect the callback asked for. */
export async function askSignIn(
  ctx: RequestContext,
  params: Parameters<CallbacksOptions["signIn"]>[0],
): Promise<ResponseInternal | undefined> {
  const { callbacks } = ctx.config
  let verdict: boolean | string
  try {
    verdict = await callbacks.signIn(params)
  } catch (error) {
    // A credentials sign-in refused the way `authorize` refuses: the sign-in page with the
    // error's `code`, as in Auth.js (which lets an `AuthError` from the callback through).
    if (error instanceof CredentialsSignin && params.account?.type === "credentials") throw error
    // As in Auth.js, whatever else it throws is a refusal. A plain error is also a fault in the
    // app's code: logged as an error, so it is seen without `debug: true`.
    if (!(error instanceof AuthError) && error instanceof Error) ctx.config.logger.error(error)
    throw new AccessDenied("The signIn callback threw", { cause: { err: error } })
  }
  // A callback that forgets to return must not let everyone in.
  if (!verdict) throw new AccessDenied("The signIn callback refused the sign-in")
  // A URL from the callback may carry user input: it goes through `redirect` like any other.
  if (typeof verdict === "string") {
    return { redirect: await callbacks.redirect({ url: verdict, baseUrl: ctx.origin }) }
  }
  return undefined
}
