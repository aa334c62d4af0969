/** Concept2 Logbook (OAuth 2.0): comma-separated scopes, the user under `data`, numeric id. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Concept2 from "@tessera/core/providers/concept2"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const user = (id: number, username: string, extra: Record<string, unknown> = {}) => ({
  data: {
    id,
    username,
    first_name: "Ada",
    last_name: "Rower",
    gender: "F",
    dob: "1990-12-10",
    email: `${username}@concept2.example`,
    country: "GBR",
    profile_image: null,
    age_restricted: false,
    email_permission: null,
    max_heart_rate: null,
    weight: null,
    logbook_privacy: "private",
    ...extra,
  },
})

const suite = runProviderTests<ProfileIdentity>({
  provider: Concept2,
  authorization: {
    url: "https://log.concept2.com/oauth/authorize",
    scope: "user:read,results:write",
    checks: ["pkce", "state"],
  },
  token: { url: "https://log.concept2.com/oauth/access_token", clientAuth: "client_secret_basic" },
  resources: [profileAt("https://log.concept2.com/api/users/me")],
  identities: {
    verified: {
      sub: "ada",
      profile: user(1, "ada", { profile_image: "https://log.concept2.example/ada.jpg" }),
      expect: {
        user: {
          id: "1",
          name: "ada",
          email: "ada@concept2.example",
          image: "https://log.concept2.example/ada.jpg",
        },
        // Concept2 sends no flag saying it verified the address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: user(2, "bob"),
      expect: {
        user: { id: "2", name: "bob", email: "bob@concept2.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("the numeric id becomes the account's string id", async () => {
  const { seen } = await suite.signIn("bob")
  expect(seen.profile.data.id).toBe(2)
  expect(seen.account.providerAccountId).toBe("2")
})
