/**
 * The compat tests' OAuth sign-in, as a browser does it with real Requests: the CSRF token,
 * `POST <basePath>/signin/<provider>`, the login at the provider (`completeOidcLogin` against
 * oidc-provider), the callback, then `<basePath>/session`. One driver, so each test file shows
 * only the Auth.js snippet it is about.
 */
import { expect } from "vitest"
import { completeOidcLogin } from "@tessera/testing"
import { Auth, type AuthConfig } from "@tessera/core"
import { Jar } from "../harness/cookies.js"

export interface OidcSignInOptions {
  origin?: string
  basePath?: string
  accountId?: string
  jar?: Jar
}

/** Signs `accountId` (default `ada`) in through `providerId`; answers every step's result. */
export async function oidcSignIn(
  config: AuthConfig,
  providerId: string,
  options: OidcSignInOptions = {},
) {
  const { origin = "http://localhost:3000", basePath = "/auth", accountId = "ada" } = options
  const jar = options.jar ?? new Jar()
  const send = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (jar.size) headers.set("cookie", jar.header())
    const response = await Auth(new Request(new URL(path, origin), { ...init, headers }), config)
    jar.update(response)
    return response
  }
  const { csrfToken } = (await (await send(`${basePath}/csrf`)).json()) as { csrfToken: string }
  const start = await send(`${basePath}/signin/${providerId}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken }),
  })
  expect(start.status).toBe(302)
  const authorize = new URL(start.headers.get("location")!)
  const back = await completeOidcLogin(authorize, { accountId })
  const done = await send(back.url.href)
  expect(done.status).toBe(302)
  const session = (await (await send(`${basePath}/session`)).json()) as {
    user?: Record<string, unknown>
    expires?: string
  } | null
  return { authorize, done, session, jar, send }
}
