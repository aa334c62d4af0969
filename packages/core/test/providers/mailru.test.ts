/** Mail.ru: scope `userinfo`, `/userinfo` with `image`. */
import { runProviderTests } from "@tessera/testing/suites"
import Mailru from "@tessera/core/providers/mailru"
import { profileAt, type ProfileIdentity } from "./helpers.js"

runProviderTests<ProfileIdentity>({
  provider: Mailru,
  authorization: {
    url: "https://oauth.mail.ru/login",
    scope: "userinfo",
    checks: ["pkce", "state"],
  },
  token: { url: "https://oauth.mail.ru/token", clientAuth: "client_secret_basic" },
  resources: [profileAt("https://oauth.mail.ru/userinfo")],
  identities: {
    verified: {
      sub: "ada",
      profile: {
        id: "10000000001",
        client_id: "app",
        email: "ada@mail.example",
        name: "Ada Mail",
        first_name: "Ada",
        last_name: "Mail",
        locale: "ru_RU",
        image: "https://filin.mail.example/pic?d=ada",
      },
      expect: {
        user: {
          id: "10000000001",
          name: "Ada Mail",
          email: "ada@mail.example",
          image: "https://filin.mail.example/pic?d=ada",
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: { id: "10000000002", first_name: "Bob", last_name: "Mail" },
      expect: {
        user: { id: "10000000002", name: "Bob Mail", email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})
