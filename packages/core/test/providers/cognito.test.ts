/** Amazon Cognito (OpenID Connect): a user-pool issuer, endpoints on the hosted UI domain. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Cognito from "@tessera/core/providers/cognito"

const pool = "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI"
const domain = "https://acme.auth.eu-west-1.amazoncognito.com"

runProviderTests({
  provider: Cognito,
  options: { issuer: pool },
  issuer: {
    url: pool,
    jwksUri: `${pool}/.well-known/jwks.json`,
    metadata: { userinfo_endpoint: `${domain}/oauth2/userInfo` },
  },
  authorization: {
    url: `${domain}/oauth2/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${domain}/oauth2/token`, clientAuth: "client_secret_basic" },
  identities: {
    verified: {
      sub: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
      claims: {
        token_use: "id",
        "cognito:username": "ada",
        email: "ada@cognito.example",
        email_verified: true,
        name: "Ada Cognito",
      },
      expect: {
        user: {
          id: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
          name: "Ada Cognito",
          email: "ada@cognito.example",
          image: null,
        },
        verifiedEmail: "ada@cognito.example",
      },
    },
    unverified: {
      sub: "ffffffff-bbbb-cccc-dddd-eeeeeeeeeeee",
      claims: {
        token_use: "id",
        "cognito:username": "bob",
        email: "bob@cognito.example",
        email_verified: "false",
      },
      expect: {
        user: {
          id: "ffffffff-bbbb-cccc-dddd-eeeeeeeeeeee",
          name: "bob",
          email: "bob@cognito.example",
          image: null,
        },
        verifiedEmail: null,
      },
    },
  },
})

test('the string "true" of Cognito\'s attributes counts', () => {
  const rule = Cognito().verifiedEmail!
  expect(rule({ email: "a@b.example", email_verified: "true" } as any, {})).toBe("a@b.example")
  expect(rule({ email: "a@b.example", email_verified: "yes" } as any, {})).toBeNull()
})
