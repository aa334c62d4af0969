/** Asgardeo (OpenID Connect): the issuer under `/oauth2/token`, names from given/family names. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Asgardeo from "@tessera/core/providers/asgardeo"
import { signInFromEnv } from "./helpers.js"

const org = "https://api.asgardeo.io/t/acme"
const issuer = `${org}/oauth2/token`

const suite = runProviderTests({
  provider: Asgardeo,
  options: { issuer },
  issuer: { url: issuer, jwksUri: `${org}/oauth2/jwks` },
  authorization: {
    url: `${org}/oauth2/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: issuer, clientAuth: "client_secret_basic" },
  identities: {
    verified: {
      sub: "5f7d3b2e-ada",
      claims: {
        given_name: "Ada",
        family_name: "Asgardeo",
        email: "ada@asgardeo.example",
        email_verified: true,
        picture: "https://asgardeo.example/ada.png",
        org_name: "acme",
      },
      expect: {
        user: {
          id: "5f7d3b2e-ada",
          name: "Ada Asgardeo",
          email: "ada@asgardeo.example",
          image: "https://asgardeo.example/ada.png",
        },
        verifiedEmail: "ada@asgardeo.example",
      },
    },
    unverified: {
      sub: "5f7d3b2e-bob",
      claims: { name: "Bob", email: "bob@asgardeo.example", email_verified: false },
      expect: {
        user: { id: "5f7d3b2e-bob", name: "Bob", email: "bob@asgardeo.example", image: null },
        verifiedEmail: null,
      },
    },
    usernameOnly: {
      sub: "5f7d3b2e-cy",
      claims: { preferred_username: "cy@asgardeo.example" },
      expect: {} as any,
    },
  },
})

test("without name claims the user name is preferred_username", async () => {
  const { session } = await suite.signIn("5f7d3b2e-cy")
  expect(session.user.name).toBe("cy@asgardeo.example")
})

test("AUTH_ASGARDEO_ISSUER is the issuer", async () => {
  const env = {
    AUTH_ASGARDEO_ID: suite.clientId,
    AUTH_ASGARDEO_SECRET: suite.clientSecret,
    AUTH_ASGARDEO_ISSUER: issuer,
  }
  const { session } = await signInFromEnv(suite, Asgardeo, env, "5f7d3b2e-ada")
  expect(session.user.email).toBe("ada@asgardeo.example")
})
