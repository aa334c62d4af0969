/**
 * Core's answer on the response Hono began for the request.
 *
 * Headers a middleware set before `authHandler()` (`setCookie(c, ...)`,
 * `c.header(...)`, `cors()`) live on `c.res`. When a handler returns a
 * `Response` and `c.res` already exists, Hono copies `c.res`'s headers over it
 * and puts `c.res`'s `Set-Cookie` lines in place of the returned ones: core's
 * session cookie (or the expired ones of a sign-out) would be lost, and an
 * app's `Cache-Control: public` would replace core's `no-store` on a session
 * answer. So core's headers are written onto `c.res` first: Hono's copy then
 * leaves core's headers as core set them, and `Set-Cookie` is the app's lines
 * followed by core's, each on its own line (as `@tessera/express` does).
 * @module
 */
import type { Context } from "hono"

/** `answer`, with its headers also on `c.res` so Hono's merge keeps them and the app's cookies. */
export function onContext(c: Context, answer: Response): Response {
  try {
    const begun = c.res.headers
    for (const [name, value] of answer.headers) {
      if (name !== "set-cookie") begun.set(name, value)
    }
    for (const line of answer.headers.getSetCookie()) begun.append("set-cookie", line)
  } catch {
    // Immutable headers on a response the app set itself: Hono's merge is left as it is.
  }
  return answer
}
