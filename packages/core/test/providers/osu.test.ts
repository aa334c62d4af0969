/** osu! API v2: scope `identify`, `/api/v2/me`, numeric ids. */
import { runProviderTests } from "@tessera/testing/suites"
import Osu from "@tessera/core/providers/osu"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const user = (id: number, username: string) => ({
  id,
  username,
  avatar_url: `https://a.ppy.example/${id}?1700000000.jpeg`,
  country_code: "AU",
  default_group: "default",
  is_active: true,
  is_bot: false,
  is_deleted: false,
  is_online: false,
  is_supporter: false,
  last_visit: null,
  pm_friends_only: false,
  profile_colour: null,
})

runProviderTests<ProfileIdentity>({
  provider: Osu,
  authorization: {
    url: "https://osu.ppy.sh/oauth/authorize",
    scope: "identify",
    checks: ["pkce", "state"],
  },
  token: { url: "https://osu.ppy.sh/oauth/token", clientAuth: "client_secret_basic" },
  resources: [profileAt("https://osu.ppy.sh/api/v2/me")],
  identities: {
    verified: {
      sub: "ada",
      profile: user(2, "peppy"),
      expect: {
        user: {
          id: "2",
          name: "peppy",
          email: null,
          image: "https://a.ppy.example/2?1700000000.jpeg",
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: user(124493, "Cookiezi"),
      expect: {
        user: {
          id: "124493",
          name: "Cookiezi",
          email: null,
          image: "https://a.ppy.example/124493?1700000000.jpeg",
        },
        verifiedEmail: null,
      },
    },
  },
})
