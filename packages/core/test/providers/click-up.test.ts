/** ClickUp (OAuth 2.0): state only, secret in the body, a token response without token_type, `user`. */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import ClickUp from "@tessera/core/providers/click-up"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const user = (id: number, username: string, extra: Record<string, unknown> = {}) => ({
  user: {
    id,
    username,
    email: `${username}@clickup.example`,
    color: "#7b68ee",
    profilePicture: null,
    initials: username.slice(0, 2).toUpperCase(),
    week_start_day: 1,
    global_font_support: false,
    timezone: "Europe/London",
    ...extra,
  },
})

const suite = runProviderTests<ProfileIdentity>({
  provider: ClickUp,
  authorization: { url: "https://app.clickup.com/api", scope: null, checks: ["state"] },
  token: {
    url: "https://api.clickup.com/api/v2/oauth/token",
    clientAuth: "client_secret_post",
    // Only the token: no token_type, no expiry, no refresh token.
    response: ({ accessToken }) => ({ access_token: accessToken }),
    error: () => json({ err: "Code already used", ECODE: "OAUTH_014" }, 400),
  },
  resources: [profileAt("https://api.clickup.com/api/v2/user")],
  identities: {
    verified: {
      sub: "ada",
      profile: user(183, "ada", {
        username: "Ada ClickUp",
        profilePicture: "https://attachments.clickup.example/ada.jpg",
      }),
      expect: {
        user: {
          id: "183",
          name: "Ada ClickUp",
          email: "ada@clickup.example",
          image: "https://attachments.clickup.example/ada.jpg",
        },
        // ClickUp sends no flag saying it verified the address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: user(184, "bob"),
      expect: {
        user: { id: "184", name: "bob", email: "bob@clickup.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("the token without a token_type is kept as a bearer token", async () => {
  const { seen, tokenBody } = await suite.signIn("bob")
  expect(tokenBody).not.toHaveProperty("token_type")
  expect(seen.account.token_type).toBe("bearer")
  expect(seen.account.expires_at).toBeUndefined()
})
