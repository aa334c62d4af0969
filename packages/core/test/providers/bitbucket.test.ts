/** Bitbucket Cloud: scope `account`, `/2.0/user` without an address. */
import { runProviderTests } from "@tessera/testing/suites"
import Bitbucket from "@tessera/core/providers/bitbucket"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const user = (id: string, display: string | null, username: string, avatar?: string) => ({
  account_id: id,
  uuid: `{${id}}`,
  username,
  nickname: username,
  display_name: display,
  type: "user",
  created_on: "2024-01-01T00:00:00+00:00",
  account_status: "active",
  has_2fa_enabled: null,
  is_staff: false,
  location: null,
  links: avatar ? { avatar: { href: avatar } } : {},
})

runProviderTests<ProfileIdentity>({
  provider: Bitbucket,
  authorization: {
    url: "https://bitbucket.org/site/oauth2/authorize",
    scope: "account",
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://bitbucket.org/site/oauth2/access_token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, refreshToken }) => ({
      access_token: accessToken,
      scopes: "account",
      token_type: "bearer",
      expires_in: 7200,
      state: "authorization_code",
      refresh_token: refreshToken,
    }),
  },
  resources: [profileAt("https://api.bitbucket.org/2.0/user")],
  identities: {
    verified: {
      sub: "557058:ada",
      profile: user("557058:ada", "Ada Bitbucket", "ada", "https://bitbucket.example/ada.png"),
      expect: {
        user: {
          id: "557058:ada",
          name: "Ada Bitbucket",
          email: null,
          image: "https://bitbucket.example/ada.png",
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "557058:bob",
      profile: user("557058:bob", null, "bob"),
      expect: {
        user: { id: "557058:bob", name: "bob", email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})
