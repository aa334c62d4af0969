/** IdentityServer4 (OpenID Connect, deprecated) against a stand-in server. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import IdentityServer4 from "@tessera/core/providers/identity-server4"
import { signInFromEnv, standardOidcIdentities } from "./helpers.js"

const issuer = "https://identity.acme.example"

const suite = runProviderTests({
  provider: IdentityServer4,
  options: { issuer },
  issuer: { url: issuer, jwksUri: `${issuer}/.well-known/openid-configuration/jwks` },
  authorization: {
    url: `${issuer}/connect/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${issuer}/connect/token`, clientAuth: "client_secret_basic" },
  identities: standardOidcIdentities("identity.example", { idp: "local", amr: ["pwd"] }),
})

test("AUTH_IDENTITY_SERVER4_ID, _SECRET and _ISSUER configure `providers: [IdentityServer4]`", async () => {
  const env = {
    AUTH_IDENTITY_SERVER4_ID: suite.clientId,
    AUTH_IDENTITY_SERVER4_SECRET: suite.clientSecret,
    AUTH_IDENTITY_SERVER4_ISSUER: issuer,
  }
  const { session } = await signInFromEnv(suite, IdentityServer4, env, "ada-subject")
  expect(session.user.email).toBe("ada@identity.example")
})
