/** WordPress.com (OAuth 2.0): scope auth, secret in the body, `email_verified` on /rest/v1/me. */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import WordPress from "@tessera/core/providers/wordpress"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const me = (id: number, name: string, email: string, verified: boolean) => ({
  ID: id,
  display_name: name,
  username: name.toLowerCase().replace(/ /g, ""),
  email,
  email_verified: verified,
  primary_blog: 200_000 + id,
  language: "en",
  token_site_id: false,
  token_scope: ["auth"],
  avatar_URL: `https://0.gravatar.example/avatar/${id}?s=96`,
  profile_URL: `https://gravatar.example/${id}`,
  verified: true,
  site_count: 1,
})

const suite = runProviderTests<ProfileIdentity>({
  provider: WordPress,
  authorization: {
    url: "https://public-api.wordpress.com/oauth2/authorize",
    scope: "auth",
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://public-api.wordpress.com/oauth2/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      token_type: "bearer",
      blog_id: "0",
      blog_url: null,
      scope: "auth",
    }),
    error: () =>
      json({ error: "invalid_grant", error_description: "The provided code is invalid." }, 400),
  },
  resources: [profileAt("https://public-api.wordpress.com/rest/v1/me")],
  account: { scope: "auth" },
  identities: {
    verified: {
      sub: "ada",
      profile: me(1001, "Ada Press", "ada@wp.example", true),
      expect: {
        user: {
          id: "1001",
          name: "Ada Press",
          email: "ada@wp.example",
          image: "https://0.gravatar.example/avatar/1001?s=96",
        },
        verifiedEmail: "ada@wp.example",
      },
    },
    unverified: {
      sub: "bob",
      profile: me(1002, "Bob", "bob@wp.example", false),
      expect: {
        user: {
          id: "1002",
          name: "Bob",
          email: "bob@wp.example",
          image: "https://0.gravatar.example/avatar/1002?s=96",
        },
        verifiedEmail: null,
      },
    },
  },
})

test("the numeric ID is the account id, as a string", async () => {
  const { seen } = await suite.signIn("ada")
  expect(seen.account.providerAccountId).toBe("1001")
})
