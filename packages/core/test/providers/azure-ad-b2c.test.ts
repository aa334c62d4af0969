/**
 * Azure AD B2C: metadata under the user flow naming a tenant-wide issuer,
 * `emails` as the address, nothing vouched for.
 */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import AzureADB2C from "@tessera/core/providers/azure-ad-b2c"

const host = "https://contoso.b2clogin.com"
const flow = `${host}/contoso.onmicrosoft.com/B2C_1_signupsignin`
const issuer = `${host}/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/`

const suite = runProviderTests({
  provider: AzureADB2C,
  options: { tenantId: "contoso", primaryUserFlow: "B2C_1_signupsignin" },
  issuer: {
    url: issuer,
    wellKnown: `${flow}/v2.0/.well-known/openid-configuration`,
    jwksUri: `${flow}/discovery/v2.0/keys`,
  },
  authorization: {
    url: `${flow}/oauth2/v2.0/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${flow}/oauth2/v2.0/token`, clientAuth: "client_secret_basic" },
  identities: {
    verified: {
      sub: "ada-object-id",
      claims: {
        ver: "1.0",
        oid: "ada-object-id",
        name: "Ada B2C",
        emails: ["ada@b2c.example"],
        tfp: "B2C_1_signupsignin",
      },
      expect: {
        user: { id: "ada-object-id", name: "Ada B2C", email: "ada@b2c.example", image: null },
        // No verification claim: a user flow's configuration is not in the token.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob-object-id",
      claims: { oid: "bob-object-id", tfp: "B2C_1_signupsignin" },
      expect: {
        user: { id: "bob-object-id", name: null, email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("the metadata URL is the user flow's", async () => {
  await suite.signIn("ada-object-id")
  expect(
    suite.standIn.requestsTo(`${flow}/v2.0/.well-known/openid-configuration`).length,
  ).toBeGreaterThan(0)
})
