/** Okta (OpenID Connect) against a stand-in custom authorization server. */
import { runProviderTests } from "@tessera/testing/suites"
import Okta from "@tessera/core/providers/okta"

const issuer = "https://acme.okta.example/oauth2/default"

runProviderTests({
  provider: Okta,
  options: { issuer },
  issuer: { url: issuer, jwksUri: `${issuer}/v1/keys` },
  authorization: {
    url: `${issuer}/v1/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "state", "nonce"],
  },
  token: { url: `${issuer}/v1/token`, clientAuth: "client_secret_basic" },
  identities: {
    verified: {
      sub: "00u1ada",
      claims: {
        ver: 1,
        amr: ["pwd"],
        name: "Ada Okta",
        preferred_username: "ada@okta.example",
        email: "ada@okta.example",
        email_verified: true,
      },
      expect: {
        user: { id: "00u1ada", name: "Ada Okta", email: "ada@okta.example", image: null },
        verifiedEmail: "ada@okta.example",
      },
    },
    unverified: {
      sub: "00u1bob",
      claims: { preferred_username: "bob@okta.example", email: "bob@okta.example" },
      expect: {
        user: { id: "00u1bob", name: "bob@okta.example", email: "bob@okta.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})
