/** FusionAuth: a tenant's metadata, offline_access, WWW-Authenticate on successful answers. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import FusionAuth from "@tessera/core/providers/fusionauth"
import { standardOidcIdentities } from "./helpers.js"

const issuer = "https://auth.acme.example"
const tenantId = "30663132-6464-6665-3032-326466613934"

const suite = runProviderTests({
  provider: FusionAuth,
  options: { issuer, tenantId },
  issuer: {
    url: issuer,
    jwksUri: `${issuer}/.well-known/jwks.json`,
    metadata: { userinfo_endpoint: `${issuer}/oauth2/userinfo` },
  },
  authorization: {
    url: `${issuer}/oauth2/authorize`,
    scope: "openid offline_access email profile",
    checks: ["pkce", "state"],
    params: { tenantId },
  },
  token: {
    url: `${issuer}/oauth2/token`,
    clientAuth: "client_secret_basic",
    // FusionAuth adds a challenge header to answers that are no challenge.
    response: ({ accessToken, refreshToken, idToken }) =>
      new Response(
        JSON.stringify({
          access_token: accessToken,
          expires_in: 3600,
          id_token: idToken,
          refresh_token: refreshToken,
          scope: "openid offline_access email profile",
          token_type: "Bearer",
          userId: "00000000-0000-0001-0000-000000000000",
        }),
        {
          status: 200,
          headers: {
            "content-type": "application/json",
            "www-authenticate": 'Bearer realm="FusionAuth"',
          },
        },
      ),
  },
  identities: standardOidcIdentities("fusionauth.example", { authenticationType: "PASSWORD" }),
})

test("the tenant's metadata is asked for by tenantId", async () => {
  await suite.signIn("ada-subject")
  const discovery = suite.standIn.requestsTo(`${issuer}/.well-known/openid-configuration`)
  expect(discovery.at(-1)!.url.searchParams.get("tenantId")).toBe(tenantId)
})
