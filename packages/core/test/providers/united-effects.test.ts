/** United Effects (OpenID Connect): the issuer as the RFC 8707 `resource` of the authorization request. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import UnitedEffects from "@tessera/core/providers/united-effects"
import { standardOidcIdentities } from "./helpers.js"

const issuer = "https://auth.unitedeffects.example/Xg3Q9mAuthGroup"

const suite = runProviderTests({
  provider: UnitedEffects,
  options: { issuer },
  issuer: { url: issuer, jwksUri: `${issuer}/jwks` },
  authorization: {
    url: `${issuer}/auth`,
    scope: "openid email profile",
    checks: ["pkce", "nonce"],
    params: { resource: issuer },
  },
  token: { url: `${issuer}/token`, clientAuth: "client_secret_basic" },
  identities: standardOidcIdentities("ue.example"),
})

test("a resource the app names itself replaces the issuer", async () => {
  const { location } = await suite.signIn("ada-subject", {
    options: { authorization: { params: { resource: "https://api.acme.example" } } },
  })
  expect(location.searchParams.getAll("resource")).toEqual(["https://api.acme.example"])
})
