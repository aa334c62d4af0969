/** FACEIT Connect: redirect_popup, HTTP Basic, PKCE and state, the guid as the account. */
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import FACEIT from "@tessera/core/providers/faceit"
import { profileAt, type ProfileIdentity } from "./helpers.js"

runProviderTests<ProfileIdentity>({
  provider: FACEIT,
  authorization: {
    url: "https://accounts.faceit.com/accounts",
    scope: null,
    checks: ["pkce", "state"],
    params: { redirect_popup: "true" },
  },
  token: {
    url: "https://api.faceit.com/auth/v1/oauth/token",
    clientAuth: "client_secret_basic",
    error: () => json({ error: "invalid_grant", error_description: "Invalid code" }, 400),
  },
  resources: [profileAt("https://api.faceit.com/auth/v1/resources/userinfo")],
  identities: {
    verified: {
      sub: "ada",
      profile: {
        guid: "5ea07280-2399-4c7e-88ab-f2f7db0c449f",
        name: "Ada Fragger",
        nickname: "ada",
        email: "ada@faceit.example",
        picture: "https://assets.faceit-cdn.example/ada.jpg",
        locale: "en",
      },
      expect: {
        user: {
          id: "5ea07280-2399-4c7e-88ab-f2f7db0c449f",
          name: "Ada Fragger",
          email: "ada@faceit.example",
          image: "https://assets.faceit-cdn.example/ada.jpg",
        },
        // FACEIT sends no flag saying it verified the address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: { guid: "a1b2c3d4-0000-4000-8000-000000000002", nickname: "bob" },
      expect: {
        user: { id: "a1b2c3d4-0000-4000-8000-000000000002", name: "bob", email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})
