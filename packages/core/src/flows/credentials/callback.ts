/**
 * Credentials sign-in: `authorize(credentials, request)` decides.
 * `null` -> `CredentialsSignin` (code `credentials`); a thrown `CredentialsSignin`
 * keeps its own `code`, a thrown `AccessDenied` stays `AccessDenied`; any other
 * throw is a server problem (`CallbackRouteError`, shown as `error=Configuration`)
 * so nothing about it reaches the URL.
 * @module
 */
import { hasControlCharacter } from "../../lib/control-characters.js"
import type { RequestContext } from "../../context.js"
import { AccessDenied, CallbackRouteError, CredentialsSignin } from "../../errors.js"
import { completeSignIn } from "../sign-in/complete.js"
import { persistCredentials } from "./persist.js"
import type { ResponseInternal, User } from "../../types.js"
import type { ResolvedCredentialsProvider } from "../types.js"

/** Fields Tessera adds to forms; never passed to `authorize`. */
const RESERVED = new Set(["csrfToken", "callbackUrl", "redirectTo", "redirect", "json"])

export async function credentialsCallback(
  ctx: RequestContext,
  provider: ResolvedCredentialsProvider,
): Promise<ResponseInternal> {
  const submitted = Object.fromEntries(
    Object.entries(ctx.request.body ?? {}).filter(([key]) => !RESERVED.has(key)),
  )
  // The original request's body has been read already; as Auth.js does, `authorize`
  // gets a request it can still read, with the submitted fields as JSON.
  const headers = new Headers(ctx.request.headers)
  headers.set("content-type", "application/json")
  headers.delete("content-length")
  const request = new Request(ctx.request.url, {
    method: "POST",
    headers,
    body: JSON.stringify(ctx.request.body ?? {}),
  })
  let user: User | null
  try {
    user = await provider.authorize(submitted, request)
  } catch (error) {
    // The app's own refusals, shown as such (Auth.js lets an `AuthError` through and shows the
    // types a client may see): a blocked user is `AccessDenied`, not a server problem.
    if (error instanceof CredentialsSignin || error instanceof AccessDenied) throw error
    throw new CallbackRouteError("The authorize callback threw", {
      cause: { err: error, provider: provider.id },
    })
  }
  if (!user) throw new CredentialsSignin("authorize returned null")
  const id = user.id === undefined || user.id === null ? crypto.randomUUID() : String(user.id)
  // An id taken from the form (a username) with a control character is no id: refused as a
  // failed sign-in, before U+0000 reaches the database (PostgreSQL text refuses it).
  if (hasControlCharacter(id))
    throw new CredentialsSignin("The user id authorize returned has a control character")
  return completeSignIn(
    ctx,
    {
      user: { ...user, id },
      account: { providerAccountId: id, type: "credentials", provider: provider.id },
    },
    persistCredentials,
    { credentials: submitted },
  )
}
