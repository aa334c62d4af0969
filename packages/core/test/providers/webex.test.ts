/** Webex (OAuth 2.0): secret in the body, a token response without token_type, `emails` as a list. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Webex from "@tessera/core/providers/webex"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const person = (id: string, name: string | undefined, emails: string[], avatar?: string) => ({
  id,
  emails,
  phoneNumbers: [],
  ...(name ? { displayName: name } : {}),
  ...(avatar ? { avatar } : {}),
  orgId: "Y2lzY29zcGFyazovL3VzL09SR0FOSVpBVElPTi8xMjM0",
  created: "2024-01-01T00:00:00.000Z",
  type: "person",
})

const suite = runProviderTests<ProfileIdentity>({
  provider: Webex,
  authorization: {
    url: "https://webexapis.com/v1/authorize",
    scope: "spark:kms spark:people_read",
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://webexapis.com/v1/access_token",
    clientAuth: "client_secret_post",
    response: ({ accessToken, refreshToken }) => ({
      access_token: accessToken,
      expires_in: 1_209_599,
      refresh_token: refreshToken,
      refresh_token_expires_in: 7_775_999,
    }),
  },
  resources: [profileAt("https://webexapis.com/v1/people/me")],
  identities: {
    verified: {
      sub: "ada",
      profile: person(
        "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9hZGE",
        "Ada Webex",
        ["ada@webex.example", "ada.alt@webex.example"],
        "https://avatar-prod-us-east-2.webexcontent.example/ada",
      ),
      expect: {
        user: {
          id: "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9hZGE",
          name: "Ada Webex",
          email: "ada@webex.example",
          image: "https://avatar-prod-us-east-2.webexcontent.example/ada",
        },
        // `emails` carries no verification flag.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: person("Y2lzY29zcGFyazovL3VzL1BFT1BMRS9ib2I", undefined, []),
      expect: {
        user: { id: "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9ib2I", name: null, email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("the token response without token_type is stored as a bearer token", async () => {
  const { seen } = await suite.signIn("ada")
  expect(seen.account.token_type).toBe("bearer")
})

test("apiBaseUrl moves every endpoint", async () => {
  const made = Webex({ apiBaseUrl: "https://api.webex.example/v1/" })
  expect(made.authorization).toMatchObject({ url: "https://api.webex.example/v1/authorize" })
  expect(made.token).toMatchObject({ url: "https://api.webex.example/v1/access_token" })
  expect(made.userinfo).toBe("https://api.webex.example/v1/people/me")
  expect(made.options).not.toHaveProperty("apiBaseUrl")
})
