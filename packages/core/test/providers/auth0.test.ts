/** Auth0 (OpenID Connect) against a stand-in tenant whose issuer ends with a slash. */
import { runProviderTests } from "@tessera/testing/suites"
import Auth0 from "@tessera/core/providers/auth0"

const tenant = "https://acme.eu.auth0.com"

runProviderTests({
  provider: Auth0,
  // The configured domain has no trailing slash; Auth0's issuer has one.
  options: { issuer: tenant },
  issuer: { url: `${tenant}/`, jwksUri: `${tenant}/.well-known/jwks.json` },
  authorization: {
    url: `${tenant}/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${tenant}/oauth/token`, clientAuth: "client_secret_basic" },
  identities: {
    verified: {
      sub: "auth0|65a0b0c0d0e0f00000000001",
      claims: {
        nickname: "ada",
        name: "ada@auth0.example",
        picture: "https://s.gravatar.example/ada.png",
        email: "ada@auth0.example",
        email_verified: true,
        updated_at: "2024-01-01T00:00:00.000Z",
      },
      expect: {
        user: {
          id: "auth0|65a0b0c0d0e0f00000000001",
          name: "ada@auth0.example",
          email: "ada@auth0.example",
          image: "https://s.gravatar.example/ada.png",
        },
        verifiedEmail: "ada@auth0.example",
      },
    },
    unverified: {
      sub: "github|583231",
      claims: { nickname: "octo", email: "octo@social.example", email_verified: false },
      expect: {
        user: { id: "github|583231", name: "octo", email: "octo@social.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})
