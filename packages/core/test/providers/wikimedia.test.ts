/** Wikimedia (MediaWiki OAuth 2.0): no scope, `confirmed_email`. */
import { runProviderTests } from "@tessera/testing/suites"
import Wikimedia from "@tessera/core/providers/wikimedia"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const base = "https://meta.wikimedia.org/w/rest.php/oauth2"
const user = (sub: string, username: string, email: string, confirmed: boolean) => ({
  sub,
  username,
  editcount: 42,
  confirmed_email: confirmed,
  blocked: false,
  registered: "20240101000000",
  groups: ["*", "user", "autoconfirmed"],
  rights: ["read", "edit"],
  grants: ["basic", "mwoauth-authonlyprivate"],
  realname: username,
  email,
})

runProviderTests<ProfileIdentity>({
  provider: Wikimedia,
  authorization: { url: `${base}/authorize`, scope: null, checks: ["pkce", "state"] },
  token: { url: `${base}/access_token`, clientAuth: "client_secret_basic" },
  resources: [profileAt(`${base}/resource/profile`)],
  identities: {
    verified: {
      sub: "ada",
      profile: user("38", "Ada Wiki", "ada@wiki.example", true),
      expect: {
        user: { id: "38", name: "Ada Wiki", email: "ada@wiki.example", image: null },
        verifiedEmail: "ada@wiki.example",
      },
    },
    unverified: {
      sub: "bob",
      profile: user("39", "Bob Wiki", "bob@wiki.example", false),
      expect: {
        user: { id: "39", name: "Bob Wiki", email: "bob@wiki.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})
