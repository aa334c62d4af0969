/** Mastodon: endpoints under the instance, `verify_credentials`. */
import { runProviderTests } from "@tessera/testing/suites"
import Mastodon from "@tessera/core/providers/mastodon"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const instance = "https://mastodon.example"
const account = (id: string, username: string, display: string) => ({
  id,
  username,
  acct: username,
  display_name: display,
  locked: false,
  bot: false,
  created_at: "2024-01-01T00:00:00.000Z",
  note: "",
  url: `${instance}/@${username}`,
  avatar: `${instance}/avatars/${id}.png`,
  avatar_static: `${instance}/avatars/${id}-static.png`,
  header: "",
  header_static: "",
  followers_count: 1,
  following_count: 1,
  statuses_count: 1,
  last_status_at: null,
})

runProviderTests<ProfileIdentity>({
  provider: Mastodon,
  options: { issuer: instance },
  authorization: { url: `${instance}/oauth/authorize`, scope: "read", checks: ["pkce", "state"] },
  token: { url: `${instance}/oauth/token`, clientAuth: "client_secret_basic" },
  resources: [profileAt(`${instance}/api/v1/accounts/verify_credentials`)],
  identities: {
    verified: {
      sub: "ada",
      profile: account("109", "ada", "Ada Mastodon"),
      expect: {
        user: {
          id: "109",
          name: "Ada Mastodon",
          email: null,
          image: `${instance}/avatars/109-static.png`,
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: account("110", "bob", ""),
      expect: {
        user: { id: "110", name: "bob", email: null, image: `${instance}/avatars/110-static.png` },
        verifiedEmail: null,
      },
    },
  },
})
