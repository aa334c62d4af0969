/** Beyond Identity (OpenID Connect) against a stand-in of one application's issuer. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import BeyondIdentity from "@tessera/core/providers/beyondidentity"
import { signInFromEnv } from "./helpers.js"

const issuer =
  "https://auth-us.beyondidentity.com/v1/tenants/00011f1183c67b69/realms/8e2a/applications/4d2c"

const suite = runProviderTests({
  provider: BeyondIdentity,
  options: { issuer },
  issuer: { url: issuer, jwksUri: `${issuer}/.well-known/jwks.json` },
  authorization: {
    url: `${issuer}/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${issuer}/token`, clientAuth: "client_secret_basic" },
  identities: {
    verified: {
      sub: "ada-identity",
      claims: {
        name: "Ada Beyond",
        preferred_username: "ada",
        email: "ada@beyond.example",
        email_verified: true,
      },
      expect: {
        user: { id: "ada-identity", name: "Ada Beyond", email: "ada@beyond.example", image: null },
        verifiedEmail: "ada@beyond.example",
      },
    },
    // No flag at all: the address is not vouched for.
    unverified: {
      sub: "bob-identity",
      claims: { preferred_username: "bob", email: "bob@beyond.example" },
      expect: {
        user: { id: "bob-identity", name: "bob", email: "bob@beyond.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("AUTH_BEYONDIDENTITY_ISSUER is the issuer", async () => {
  const env = {
    AUTH_BEYONDIDENTITY_ID: suite.clientId,
    AUTH_BEYONDIDENTITY_SECRET: suite.clientSecret,
    AUTH_BEYONDIDENTITY_ISSUER: issuer,
  }
  const { session } = await signInFromEnv(suite, BeyondIdentity, env, "ada-identity")
  expect(session.user.name).toBe("Ada Beyond")
})
