/** Kinde (OpenID Connect): state and PKCE, no nonce; the name from given and family name. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Kinde from "@tessera/core/providers/kinde"
import { signInFromEnv } from "./helpers.js"

const issuer = "https://acme.kinde.example"

const suite = runProviderTests({
  provider: Kinde,
  options: { issuer },
  issuer: { url: issuer, jwksUri: `${issuer}/.well-known/jwks` },
  authorization: {
    url: `${issuer}/oauth2/auth`,
    scope: "openid profile email",
    checks: ["state", "pkce"],
  },
  token: { url: `${issuer}/oauth2/token`, clientAuth: "client_secret_basic" },
  identities: {
    verified: {
      sub: "kp_0123456789abcdef",
      claims: {
        azp: "tessera-test-client",
        given_name: "Ada",
        family_name: "Lovelace",
        email: "ada@kinde.example",
        email_verified: true,
        picture: "https://gravatar.example/ada",
      },
      expect: {
        user: {
          id: "kp_0123456789abcdef",
          name: "Ada Lovelace",
          email: "ada@kinde.example",
          image: "https://gravatar.example/ada",
        },
        verifiedEmail: "ada@kinde.example",
      },
    },
    unverified: {
      sub: "kp_fedcba9876543210",
      // No email_verified claim at all: nothing is vouched for.
      claims: { name: "Bob", email: "bob@kinde.example" },
      expect: {
        user: { id: "kp_fedcba9876543210", name: "Bob", email: "bob@kinde.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("AUTH_KINDE_ID, _SECRET and _ISSUER configure `providers: [Kinde]`", async () => {
  const env = {
    AUTH_KINDE_ID: suite.clientId,
    AUTH_KINDE_SECRET: suite.clientSecret,
    AUTH_KINDE_ISSUER: issuer,
  }
  const { session } = await signInFromEnv(suite, Kinde, env, "kp_0123456789abcdef")
  expect(session.user.name).toBe("Ada Lovelace")
})
