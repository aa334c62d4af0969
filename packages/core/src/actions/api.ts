/**
 * JSON actions: csrf, providers, session.
 * @module
 */
import { providerUrls, type RequestContext } from "../context.js"
import { assertCsrf, ensureCsrfToken } from "../http/csrf.js"
import { noStoreHeaders } from "../http/response.js"
import { sessionStrategy } from "../session/index.js"
import type { PublicProvider, ResponseInternal } from "../types.js"

export async function csrf(ctx: RequestContext): Promise<ResponseInternal> {
  // With CSRF checking off there is no token to hand out (spec, Errors rule 5).
  if (ctx.config.skipCSRFCheck)
    return {
      status: 404,
      body: { error: "UnknownAction", message: "CSRF protection is turned off" },
    }
  const csrfToken = await ensureCsrfToken(ctx)
  return { headers: noStoreHeaders, body: { csrfToken }, cookies: ctx.cookies }
}

export function providers(ctx: RequestContext): ResponseInternal {
  const list: Record<string, PublicProvider> = {}
  for (const provider of ctx.config.providers) {
    list[provider.id] = {
      id: provider.id,
      name: provider.name,
      type: provider.type,
      ...providerUrls(ctx, provider),
    }
  }
  return { body: list }
}

export async function session(ctx: RequestContext): Promise<ResponseInternal> {
  const strategy = sessionStrategy(ctx)
  let update: { data: unknown } | undefined
  if (ctx.request.method === "POST") {
    await assertCsrf(ctx)
    update = { data: ctx.request.body?.data }
  }
  const current = await strategy.read(ctx, update)
  return { headers: noStoreHeaders, body: current, cookies: ctx.cookies }
}
