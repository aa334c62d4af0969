/** 42 (OAuth 2.0): `/v2/me`, the usual full name, the photo link, no vouched-for e-mail. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import FortyTwo from "@tessera/core/providers/42-school"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const image = (link: string | null) => ({
  link,
  versions: { large: link, medium: link, small: link, micro: link },
})
const student = (id: number, login: string, extra: Record<string, unknown>) => ({
  id,
  login,
  email: `${login}@student.42.example`,
  first_name: "Ada",
  last_name: "Lovelace",
  displayname: "Ada Lovelace",
  url: `https://api.intra.42.fr/v2/users/${login}`,
  kind: "student",
  "staff?": false,
  cursus_users: [],
  campus: [],
  ...extra,
})

const suite = runProviderTests<ProfileIdentity>({
  provider: FortyTwo,
  authorization: {
    url: "https://api.intra.42.fr/oauth/authorize",
    scope: "public",
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://api.intra.42.fr/oauth/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, refreshToken }) => ({
      access_token: accessToken,
      token_type: "bearer",
      expires_in: 7200,
      refresh_token: refreshToken,
      scope: "public",
      created_at: 1700000000,
      secret_valid_until: 1702592000,
    }),
  },
  resources: [profileAt("https://api.intra.42.fr/v2/me")],
  identities: {
    verified: {
      sub: "ada",
      profile: student(90001, "alovelac", {
        usual_full_name: "Ada King",
        image: image("https://cdn.intra.42.example/users/alovelac.jpg"),
      }),
      expect: {
        user: {
          id: "90001",
          name: "Ada King",
          email: "alovelac@student.42.example",
          image: "https://cdn.intra.42.example/users/alovelac.jpg",
        },
        // 42 sends no flag saying it verified the address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: student(90002, "bbabbage", {
        usual_full_name: null,
        displayname: "Bob Babbage",
        image: image(null),
      }),
      expect: {
        user: {
          id: "90002",
          name: "Bob Babbage",
          email: "bbabbage@student.42.example",
          image: null,
        },
        verifiedEmail: null,
      },
    },
  },
})

test("a student without a usual name or photo gets the display name and no image", async () => {
  const { session, seen } = await suite.signIn("bob")
  expect(seen.profile.usual_full_name).toBeNull()
  expect(session.user).toMatchObject({ name: "Bob Babbage", image: null })
})
