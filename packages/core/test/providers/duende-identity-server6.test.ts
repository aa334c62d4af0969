/** Duende IdentityServer 6 (OpenID Connect) against a stand-in server, claims from the ID Token or userinfo. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import DuendeIdentityServer6 from "@tessera/core/providers/duende-identity-server6"
import { standardOidcIdentities } from "./helpers.js"

const issuer = "https://identity.acme.example"

const suite = runProviderTests({
  provider: DuendeIdentityServer6,
  options: { issuer },
  issuer: {
    url: issuer,
    jwksUri: `${issuer}/.well-known/openid-configuration/jwks`,
    metadata: { userinfo_endpoint: `${issuer}/connect/userinfo` },
  },
  authorization: {
    url: `${issuer}/connect/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${issuer}/connect/token`, clientAuth: "client_secret_basic" },
  resources: [
    {
      url: `${issuer}/connect/userinfo`,
      response: ({ identity }) => ({ sub: identity.sub, ...identity.claims }),
    },
  ],
  identities: standardOidcIdentities("identity.example", { idp: "local", amr: ["pwd"] }),
})

test("idToken: false reads the claims from the userinfo endpoint", async () => {
  const { session } = await suite.signIn("ada-subject", { options: { idToken: false } })
  expect(session.user).toMatchObject({ name: "Ada", email: "ada@identity.example" })
  const userinfo = suite.standIn.requestsTo(`${issuer}/connect/userinfo`)
  expect(userinfo.length).toBeGreaterThan(0)
})
