/**
 * Auth.js v5's OAuth provider option snippets (authjs.dev/guides/configuring-oauth-providers,
 * reference/core/providers), imports changed to `@tessera/*`, against a real OpenID
 * Provider: a custom OIDC provider object, `client.token_endpoint_auth_method`,
 * `checks`, `wellKnown`, `authorization.params.scope`, `profile(profile, tokens)`, and
 * `basePath: "/api/auth"`.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { completeOidcLogin, startOidcProvider, type OidcProviderServer } from "@tessera/testing"
import { Auth, type AuthConfig } from "@tessera/core"
import { Jar } from "../harness/cookies.js"
import { SECRET } from "../harness/index.js"

const ORIGIN = "http://localhost:3000"
let idp: OidcProviderServer

beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/api/auth/callback/my-provider`],
    tokenEndpointAuthMethod: "client_secret_post",
  })
})
afterAll(async () => {
  await idp?.stop()
})

/** Drives the sign-in under `basePath` with real Requests; answers the session. */
async function signInUnder(config: AuthConfig, basePath: string) {
  const jar = new Jar()
  const send = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (jar.size) headers.set("cookie", jar.header())
    const response = await Auth(new Request(new URL(path, ORIGIN), { ...init, headers }), config)
    jar.update(response)
    return response
  }
  const { csrfToken } = (await (await send(`${basePath}/csrf`)).json()) as { csrfToken: string }
  const start = await send(`${basePath}/signin/my-provider`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken }),
  })
  expect(start.status).toBe(302)
  const authorize = new URL(start.headers.get("location")!)
  const back = await completeOidcLogin(authorize, { accountId: "ada" })
  const done = await send(back.url.href)
  expect(done.status).toBe(302)
  const session = await (await send(`${basePath}/session`)).json()
  return { authorize, session }
}

describe("a custom OIDC provider object (authjs.dev/guides/configuring-oauth-providers)", () => {
  test("client, checks, wellKnown, scope, profile(profile, tokens), basePath /api/auth", async () => {
    const seen: { tokens?: Record<string, unknown> } = {}
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      basePath: "/api/auth",
      providers: [
        {
          id: "my-provider", // signIn("my-provider") and will be part of the callback URL
          name: "My Provider", // optional, used on the default login page as the button text.
          type: "oidc", // or "oauth" for OAuth 2 providers
          issuer: idp.issuer, // to infer the .well-known/openid-configuration URL
          wellKnown: `${idp.issuer}/.well-known/openid-configuration`,
          clientId: idp.clientId, // from the provider's dashboard
          clientSecret: idp.clientSecret, // from the provider's dashboard
          client: { token_endpoint_auth_method: "client_secret_post" },
          checks: ["pkce", "state"],
          authorization: { params: { scope: "openid email profile" } },
          dangerouslyAllowInsecureHttpRequests: true,
          profile(profile, tokens) {
            seen.tokens = tokens
            return {
              id: profile.sub,
              name: profile.name,
              email: profile.email,
              image: profile.picture,
            }
          },
        },
      ],
    }
    const { authorize, session } = await signInUnder(config, "/api/auth")
    expect(authorize.searchParams.get("redirect_uri")).toBe(
      `${ORIGIN}/api/auth/callback/my-provider`,
    )
    expect(authorize.searchParams.get("scope")).toBe("openid email profile")
    expect(authorize.searchParams.has("state")).toBe(true)
    expect(authorize.searchParams.has("code_challenge")).toBe(true)
    expect(typeof seen.tokens?.access_token).toBe("string")
    expect(session.user).toMatchObject({ name: "Ada", email: "ada@example.test" })
  })
})
