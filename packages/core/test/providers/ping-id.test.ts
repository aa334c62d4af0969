/** Ping Identity (OpenID Connect) against a stand-in PingOne environment. */
import { runProviderTests } from "@tessera/testing/suites"
import PingId from "@tessera/core/providers/ping-id"

const issuer = "https://auth.pingone.example/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0/as"

runProviderTests({
  provider: PingId,
  options: { issuer },
  issuer: { url: issuer, jwksUri: `${issuer}/jwks` },
  authorization: {
    url: `${issuer}/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${issuer}/token`, clientAuth: "client_secret_basic" },
  identities: {
    verified: {
      sub: "5b2e3f0a-ada0",
      claims: {
        name: "Ada Ping",
        preferred_username: "ada",
        email: "ada@ping.example",
        email_verified: true,
        env: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
        "p1.region": "NA",
      },
      expect: {
        user: { id: "5b2e3f0a-ada0", name: "Ada Ping", email: "ada@ping.example", image: null },
        verifiedEmail: "ada@ping.example",
      },
    },
    unverified: {
      // No e-mail verified claim mapped in the environment: nothing is vouched for.
      sub: "5b2e3f0a-b0b0",
      claims: { preferred_username: "bob", email: "bob@ping.example" },
      expect: {
        user: { id: "5b2e3f0a-b0b0", name: "bob", email: "bob@ping.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})
