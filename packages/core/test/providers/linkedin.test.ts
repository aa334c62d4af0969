/** LinkedIn (OpenID Connect): an issuer with a path, state + nonce, client_secret_post. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import LinkedIn from "@tessera/core/providers/linkedin"

const claims = (name: string, email: string, verified: boolean) => ({
  name,
  given_name: name.split(" ")[0],
  family_name: "LinkedIn",
  picture: "https://media.licdn.example/ada.jpg",
  locale: "en_US",
  email,
  email_verified: verified,
})

const suite = runProviderTests({
  provider: LinkedIn,
  issuer: {
    url: "https://www.linkedin.com/oauth",
    jwksUri: "https://www.linkedin.com/oauth/openid/jwks",
  },
  authorization: {
    url: "https://www.linkedin.com/oauth/v2/authorization",
    scope: "openid profile email",
    checks: ["state", "nonce"],
  },
  token: { url: "https://www.linkedin.com/oauth/v2/accessToken", clientAuth: "client_secret_post" },
  identities: {
    verified: {
      sub: "782bbtaQ",
      claims: claims("Ada LinkedIn", "ada@linkedin.example", true),
      expect: {
        user: {
          id: "782bbtaQ",
          name: "Ada LinkedIn",
          email: "ada@linkedin.example",
          image: "https://media.licdn.example/ada.jpg",
        },
        verifiedEmail: "ada@linkedin.example",
      },
    },
    unverified: {
      sub: "99bbbbQ",
      claims: claims("Bob LinkedIn", "bob@linkedin.example", false),
      expect: {
        user: {
          id: "99bbbbQ",
          name: "Bob LinkedIn",
          email: "bob@linkedin.example",
          image: "https://media.licdn.example/ada.jpg",
        },
        verifiedEmail: null,
      },
    },
  },
})

test("the metadata comes from the wellKnown URL under the issuer's path", async () => {
  await suite.signIn("782bbtaQ")
  expect(
    suite.standIn.requestsTo("https://www.linkedin.com/oauth/.well-known/openid-configuration")
      .length,
  ).toBeGreaterThan(0)
})
