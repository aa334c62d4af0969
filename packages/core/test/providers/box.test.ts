/** Box: no scope parameter, client secret in the body, `login` as the address. */
import { runProviderTests } from "@tessera/testing/suites"
import Box from "@tessera/core/providers/box"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const user = (id: string, name: string, login: string) => ({
  type: "user",
  id,
  name,
  login,
  created_at: "2024-01-01T00:00:00-08:00",
  modified_at: "2024-01-02T00:00:00-08:00",
  language: "en",
  timezone: "Africa/Bujumbura",
  space_amount: 11345156112,
  space_used: 1237009912,
  max_upload_size: 2147483648,
  status: "active",
  job_title: "",
  phone: "",
  address: "",
  avatar_url: `https://app.box.example/api/avatar/large/${id}`,
})

runProviderTests<ProfileIdentity>({
  provider: Box,
  authorization: {
    url: "https://account.box.com/api/oauth2/authorize",
    scope: null,
    checks: ["pkce", "state"],
  },
  token: { url: "https://api.box.com/oauth2/token", clientAuth: "client_secret_post" },
  resources: [profileAt("https://api.box.com/2.0/users/me")],
  identities: {
    verified: {
      sub: "ada",
      profile: user("11446498", "Aaron Levie", "ceo@box.example"),
      expect: {
        user: {
          id: "11446498",
          name: "Aaron Levie",
          email: "ceo@box.example",
          image: "https://app.box.example/api/avatar/large/11446498",
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: user("11446499", "Bob Box", "bob@box.example"),
      expect: {
        user: {
          id: "11446499",
          name: "Bob Box",
          email: "bob@box.example",
          image: "https://app.box.example/api/avatar/large/11446499",
        },
        verifiedEmail: null,
      },
    },
  },
})
