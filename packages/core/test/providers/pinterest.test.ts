/** Pinterest API v5: HTTP Basic, the user name as id. */
import { runProviderTests } from "@tessera/testing/suites"
import Pinterest from "@tessera/core/providers/pinterest"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const account = (username: string, type: "BUSINESS" | "PINNER") => ({
  account_type: type,
  username,
  profile_image: `https://i.pinimg.example/600x600_R/${username}.jpg`,
  website_url: `https://${username}.example`,
})

runProviderTests<ProfileIdentity>({
  provider: Pinterest,
  authorization: {
    url: "https://www.pinterest.com/oauth",
    scope: "user_accounts:read",
    checks: ["pkce", "state"],
  },
  token: { url: "https://api.pinterest.com/v5/oauth/token", clientAuth: "client_secret_basic" },
  resources: [profileAt("https://api.pinterest.com/v5/user_account")],
  identities: {
    verified: {
      sub: "ada",
      profile: account("adapins", "PINNER"),
      expect: {
        user: {
          id: "adapins",
          name: "adapins",
          email: null,
          image: "https://i.pinimg.example/600x600_R/adapins.jpg",
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: account("bobshop", "BUSINESS"),
      expect: {
        user: {
          id: "bobshop",
          name: "bobshop",
          email: null,
          image: "https://i.pinimg.example/600x600_R/bobshop.jpg",
        },
        verifiedEmail: null,
      },
    },
  },
})
