/**
 * JSON actions: csrf, providers, session.
 * @module
 */
import type { RequestContext } from "../context.js"
import { ensureCsrfToken } from "../http/csrf.js"
import { noStoreHeaders } from "../http/response.js"
import { providerUrls } from "../http/urls.js"
import { sessionStrategy } from "../session/index.js"
import type { PublicProvider, ResponseInternal } from "../types.js"

/** GET csrf: the token for state-changing requests (its cookie is set alongside). */
export async function csrf(ctx: RequestContext): Promise<ResponseInternal> {
  // With CSRF checking off there is no token to hand out (spec, Errors rule 5).
  if (ctx.config.skipCSRFCheck) {
    return {
      status: 404,
      body: { error: "UnknownAction", message: "CSRF protection is turned off" },
    }
  }
  const csrfToken = await ensureCsrfToken(ctx)
  return { headers: noStoreHeaders, body: { csrfToken } }
}

/** GET providers: what a client needs to offer each sign-in method; nothing secret. */
export function providers(ctx: RequestContext): ResponseInternal {
  const list: Record<string, PublicProvider> = {}
  for (const { id, name, type } of ctx.config.providers) {
    list[id] = { id, name, type, ...providerUrls(ctx, id) }
  }
  return { body: list }
}

/**
 * The session's headers when the app's `session` callback answered text: named JSON, so the
 * string goes out JSON-encoded (as in Auth.js), never as a page on the auth origin.
 */
const jsonNoStoreHeaders = Object.freeze({ ...noStoreHeaders, "Content-Type": "application/json" })

/** GET session: the session or `null`. POST session (CSRF checked): runs `jwt` with `trigger: "update"`. */
export async function session(ctx: RequestContext): Promise<ResponseInternal> {
  const update = ctx.request.method === "POST" ? { data: ctx.request.body?.data } : undefined
  const current = await sessionStrategy(ctx).read(ctx, update)
  const headers = typeof current === "string" ? jsonNoStoreHeaders : noStoreHeaders
  return { headers, body: current }
}
