/** Sign in with Slack (OpenID Connect): `{ ok: false }` errors with status 200. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Slack from "@tessera/core/providers/slack"

const slackClaims = (email: string, verified: boolean, name: string) => ({
  auth_time: Math.floor(Date.now() / 1000),
  "https://slack.com/user_id": "U0R7JM",
  "https://slack.com/team_id": "T0R7GR",
  email,
  email_verified: verified,
  name,
  picture: "https://secure.gravatar.example/ada-512.png",
  given_name: name.split(" ")[0],
  family_name: "Slack",
  locale: "en-US",
})

const suite = runProviderTests({
  provider: Slack,
  issuer: { url: "https://slack.com", jwksUri: "https://slack.com/openid/connect/keys" },
  authorization: {
    url: "https://slack.com/openid/connect/authorize",
    scope: "openid profile email",
    checks: ["state", "nonce"],
  },
  token: {
    url: "https://slack.com/api/openid.connect.token",
    clientAuth: "client_secret_post",
    response: ({ accessToken, idToken }) => ({
      ok: true,
      access_token: accessToken,
      token_type: "Bearer",
      id_token: idToken,
    }),
    error: () => ({ ok: false, error: "invalid_code" }),
  },
  identities: {
    verified: {
      sub: "U0R7JM",
      claims: slackClaims("ada@slack.example", true, "Ada Slack"),
      expect: {
        user: {
          id: "U0R7JM",
          name: "Ada Slack",
          email: "ada@slack.example",
          image: "https://secure.gravatar.example/ada-512.png",
        },
        verifiedEmail: "ada@slack.example",
      },
    },
    unverified: {
      sub: "U0R7BB",
      claims: slackClaims("bob@slack.example", false, "Bob Slack"),
      expect: {
        user: {
          id: "U0R7BB",
          name: "Bob Slack",
          email: "bob@slack.example",
          image: "https://secure.gravatar.example/ada-512.png",
        },
        verifiedEmail: null,
      },
    },
  },
})

test("Slack's { ok: false } is logged as the provider's error", async () => {
  const { errors } = await suite.signIn("U0R7JM", { outcome: "tokenError" })
  expect(errors.at(-1)?.message).toContain("invalid_code")
})
