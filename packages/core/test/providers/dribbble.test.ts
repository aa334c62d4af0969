/** Dribbble (OAuth 2.0): the `scope` option, `/v2/user`, numeric id, no vouched-for e-mail. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Dribbble from "@tessera/core/providers/dribbble"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const user = (id: number, login: string, extra: Record<string, unknown> = {}) => ({
  id,
  login,
  name: null,
  html_url: `https://dribbble.com/${login}`,
  avatar_url: `https://cdn.dribbble.example/users/${id}/avatar.png`,
  bio: "",
  location: null,
  links: {},
  can_upload_shot: false,
  pro: false,
  followers_count: 0,
  created_at: "2020-01-01T00:00:00Z",
  type: "Player",
  teams: [],
  ...extra,
})

const suite = runProviderTests<ProfileIdentity>({
  provider: Dribbble,
  options: { scope: "public upload" },
  authorization: {
    url: "https://dribbble.com/oauth/authorize",
    scope: "public upload",
    checks: ["pkce", "state"],
  },
  token: { url: "https://dribbble.com/oauth/token", clientAuth: "client_secret_basic" },
  resources: [profileAt("https://api.dribbble.com/v2/user")],
  identities: {
    verified: {
      sub: "ada",
      profile: user(483195, "ada", { name: "Ada Dribbble", email: "ada@dribbble.example" }),
      expect: {
        user: {
          id: "483195",
          name: "Ada Dribbble",
          email: "ada@dribbble.example",
          image: "https://cdn.dribbble.example/users/483195/avatar.png",
        },
        // Dribbble sends no flag saying it verified the address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: user(483196, "bob"),
      expect: {
        user: {
          id: "483196",
          name: "bob",
          email: null,
          image: "https://cdn.dribbble.example/users/483196/avatar.png",
        },
        verifiedEmail: null,
      },
    },
  },
})

test("without the scope option no scope is sent (Dribbble grants public)", async () => {
  const { location, session } = await suite.signIn("ada", { options: { scope: undefined } })
  expect(location.searchParams.has("scope")).toBe(false)
  expect(session.user.name).toBe("Ada Dribbble")
})

test("the scope option is not passed on as a provider option", () => {
  expect(Dribbble({ scope: "public" }).options).not.toHaveProperty("scope")
})
