/** X (Twitter) OAuth 2.0: PKCE + state, HTTP Basic, `{ data }` profile, confirmed_email. */
import { expect } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Twitter from "@tessera/core/providers/twitter"
import type { ProfileIdentity } from "./helpers.js"

runProviderTests<ProfileIdentity>({
  provider: Twitter,
  authorization: {
    url: "https://x.com/i/oauth2/authorize",
    scope: "users.read tweet.read offline.access",
    checks: ["pkce", "state"],
  },
  token: { url: "https://api.x.com/2/oauth2/token", clientAuth: "client_secret_basic" },
  resources: [
    {
      url: "https://api.x.com/2/users/me",
      response: ({ identity, request }) => {
        expect(request.url.searchParams.get("user.fields")).toBe("profile_image_url")
        return identity.profile
      },
    },
  ],
  identities: {
    verified: {
      sub: "2244994945",
      profile: {
        data: {
          id: "2244994945",
          name: "X Dev",
          username: "TwitterDev",
          confirmed_email: "dev@x.example",
          profile_image_url: "https://pbs.twimg.example/profile_images/dev_normal.jpg",
        },
      },
      expect: {
        user: {
          id: "2244994945",
          name: "X Dev",
          email: "dev@x.example",
          image: "https://pbs.twimg.example/profile_images/dev_normal.jpg",
        },
        verifiedEmail: "dev@x.example",
      },
    },
    unverified: {
      sub: "783214",
      profile: { data: { id: "783214", name: "X", username: "X" } },
      expect: { user: { id: "783214", name: "X", email: null, image: null }, verifiedEmail: null },
    },
  },
})
