/**
 * Where an Express middleware is mounted, learnt from the request: Express
 * does not tell a middleware its mount pattern, only what the pattern matched.
 *
 * - `app.use("/auth", mw)` (Express 4 and 5): `req.baseUrl` is `/auth`.
 * - `app.use("/auth/*", mw)` (Express 4) and `app.use("/auth/*splat", mw)` or
 *   `"/auth/{*splat}"` (Express 5, where a bare `*` is a syntax error):
 *   `req.baseUrl` is the whole matched path, `/auth/signin/github`, and the
 *   wildcard captured `signin/github` (Express 4: `req.params[0]`; Express 5:
 *   an array of segments under the wildcard's name). The mount path is what
 *   is left once that capture is taken off the end.
 * - `app.use(mw)`: `req.baseUrl` is empty.
 * @module
 */
import type { Request as ExpressRequest } from "express"

/** The static part of the mount path (`""` at the root), or `undefined` when it cannot be told. */
export function mountPathOf(req: ExpressRequest): string | undefined {
  const base = req.baseUrl.replace(/\/+$/, "")
  const tail = wildcardCapture(req.params)
  if (tail === undefined || tail === "") return base
  // The capture is decoded and baseUrl is not: a percent-encoded path does not line up, and is
  // better refused (it is no auth route as sent) than guessed at.
  return base.endsWith(`/${tail}`) ? base.slice(0, -tail.length - 1) : undefined
}

function wildcardCapture(params: Record<string, unknown>): string | undefined {
  const express4 = params["0"]
  if (typeof express4 === "string") return express4
  for (const value of Object.values(params)) {
    if (Array.isArray(value)) return value.join("/")
  }
  return undefined
}
