/** Mailchimp: client_secret_post, a token response with no token_type, a null scope and expires_in 0, the OAuth scheme. */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Mailchimp from "@tessera/core/providers/mailchimp"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const METADATA = "https://login.mailchimp.com/oauth2/metadata"

const metadata = (loginId: number, account: string, email: string, avatar: string | null) => ({
  dc: "us19",
  role: "owner",
  accountname: account,
  user_id: 41000000 + loginId,
  login: { email, avatar, login_id: loginId, login_name: account, login_email: email },
  login_url: "https://login.mailchimp.com",
  api_endpoint: "https://us19.api.mailchimp.com",
})

const suite = runProviderTests<ProfileIdentity>({
  provider: Mailchimp,
  authorization: {
    url: "https://login.mailchimp.com/oauth2/authorize",
    scope: null,
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://login.mailchimp.com/oauth2/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({ access_token: accessToken, expires_in: 0, scope: null }),
    error: () =>
      json({ error: "invalid_grant", error_description: "Invalid authorization code" }, 400),
  },
  resources: [profileAt(METADATA)],
  account: { token_type: "bearer" },
  identities: {
    verified: {
      sub: "ada",
      profile: metadata(1001, "Ada's Shop", "ada@mailchimp.example", "https://mc.example/ada.png"),
      expect: {
        user: {
          id: "1001",
          name: "Ada's Shop",
          email: "ada@mailchimp.example",
          image: "https://mc.example/ada.png",
        },
        // Mailchimp sends no flag saying it verified the address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: metadata(1002, "Bob", "bob@mailchimp.example", null),
      expect: {
        user: { id: "1002", name: "Bob", email: "bob@mailchimp.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("a token that never expires gets no expires_at, and a null scope none", async () => {
  const { seen } = await suite.signIn("ada")
  expect(seen.account).not.toHaveProperty("expires_at")
  expect(seen.account).not.toHaveProperty("scope")
})

test("the metadata endpoint gets the token with the OAuth scheme", async () => {
  const { tokenBody } = await suite.signIn("ada")
  const request = suite.standIn.requestsTo(METADATA).at(-1)!
  expect(request.headers.get("authorization")).toBe(`OAuth ${tokenBody!.access_token}`)
})
