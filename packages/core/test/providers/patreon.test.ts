/** Patreon: JSON:API current user, `is_email_verified`, secret in the body. */
import { runProviderTests } from "@tessera/testing/suites"
import Patreon from "@tessera/core/providers/patreon"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const user = (id: string, name: string, email: string, verified: boolean) => ({
  data: {
    id,
    type: "user",
    attributes: {
      full_name: name,
      email,
      is_email_verified: verified,
      image_url: `https://c8.patreon.example/2/200/${id}`,
      url: `https://www.patreon.example/user?u=${id}`,
      created: "2017-10-20T21:36:23+00:00",
    },
  },
  links: { self: `https://www.patreon.com/api/user/${id}` },
})

runProviderTests<ProfileIdentity>({
  provider: Patreon,
  authorization: {
    url: "https://www.patreon.com/oauth2/authorize",
    scope: "identity identity[email]",
    checks: ["pkce", "state"],
  },
  token: { url: "https://www.patreon.com/api/oauth2/token", clientAuth: "client_secret_post" },
  resources: [profileAt("https://www.patreon.com/api/oauth2/api/current_user")],
  identities: {
    verified: {
      sub: "ada",
      profile: user("12345", "Ada Patreon", "ada@patreon.example", true),
      expect: {
        user: {
          id: "12345",
          name: "Ada Patreon",
          email: "ada@patreon.example",
          image: "https://c8.patreon.example/2/200/12345",
        },
        verifiedEmail: "ada@patreon.example",
      },
    },
    unverified: {
      sub: "bob",
      profile: user("67890", "Bob Patreon", "bob@patreon.example", false),
      expect: {
        user: {
          id: "67890",
          name: "Bob Patreon",
          email: "bob@patreon.example",
          image: "https://c8.patreon.example/2/200/67890",
        },
        verifiedEmail: null,
      },
    },
  },
})
