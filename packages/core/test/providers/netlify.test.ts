/** Netlify: no scope parameter, `/api/v1/user`. */
import { runProviderTests } from "@tessera/testing/suites"
import Netlify from "@tessera/core/providers/netlify"
import { profileAt, type ProfileIdentity } from "./helpers.js"

runProviderTests<ProfileIdentity>({
  provider: Netlify,
  authorization: {
    url: "https://app.netlify.com/authorize",
    scope: null,
    checks: ["pkce", "state"],
  },
  token: { url: "https://api.netlify.com/oauth/token", clientAuth: "client_secret_basic" },
  resources: [profileAt("https://api.netlify.com/api/v1/user")],
  identities: {
    verified: {
      sub: "ada",
      profile: {
        id: "5c2a6b3e",
        full_name: "Ada Netlify",
        avatar_url: "https://avatars.netlify.example/ada.png",
        email: "ada@netlify.example",
      },
      expect: {
        user: {
          id: "5c2a6b3e",
          name: "Ada Netlify",
          email: "ada@netlify.example",
          image: "https://avatars.netlify.example/ada.png",
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: { id: "5c2a6b3f", full_name: null, avatar_url: null, email: "bob@netlify.example" },
      expect: {
        user: { id: "5c2a6b3f", name: null, email: "bob@netlify.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})
