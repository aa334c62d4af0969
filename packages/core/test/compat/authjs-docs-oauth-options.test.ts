/**
 * Auth.js v5's OAuth provider option snippets (authjs.dev/guides/configuring-oauth-providers,
 * reference/core/providers), imports changed to `@tessera/*`, against a real OpenID
 * Provider: a custom OIDC provider object, `client.token_endpoint_auth_method`,
 * `checks`, `wellKnown`, `authorization.params.scope`, `profile(profile, tokens)`, and
 * `basePath: "/api/auth"`.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { startOidcProvider, type OidcProviderServer } from "@tessera/testing"
import type { AuthConfig } from "@tessera/core"
import { SECRET } from "../harness/index.js"
import { oidcSignIn } from "./oidc-sign-in.js"

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
    const { authorize, session } = await oidcSignIn(config, "my-provider", {
      basePath: "/api/auth",
    })
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
