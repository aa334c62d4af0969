/** Zoho Accounts (OAuth 2.0): secret in the body, errors with status 200, the user from /oauth/user/info. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Zoho from "@tessera/core/providers/zoho"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const suite = runProviderTests<ProfileIdentity>({
  provider: Zoho,
  authorization: {
    url: "https://accounts.zoho.com/oauth/v2/auth",
    scope: "AaaServer.profile.Read",
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://accounts.zoho.com/oauth/v2/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      api_domain: "https://www.zohoapis.com",
      token_type: "Bearer",
      expires_in: 3600,
    }),
    // Zoho refuses a code with status 200.
    error: () => ({ error: "invalid_code" }),
  },
  resources: [profileAt("https://accounts.zoho.com/oauth/user/info")],
  identities: {
    verified: {
      sub: "ada",
      profile: {
        ZUID: 700_000_001,
        First_Name: "Ada",
        Last_Name: "Zoho",
        Display_Name: "ada.zoho",
        Email: "ada@zoho.example",
      },
      expect: {
        user: { id: "700000001", name: "Ada Zoho", email: "ada@zoho.example", image: null },
        // /oauth/user/info has no flag saying the address was verified.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: {
        ZUID: 700_000_002,
        First_Name: "",
        Last_Name: "",
        Display_Name: "bob",
        Email: "bob@zoho.example",
      },
      expect: {
        user: { id: "700000002", name: "bob", email: "bob@zoho.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("a code refused with status 200 and an error field signs nobody in", async () => {
  const result = await suite.signIn("ada", { outcome: "tokenError" })
  expect(result.session).toBeNull()
  expect(result.tokenBody).toBeUndefined()
})
