/** ZITADEL (OpenID Connect) against a stand-in instance. */
import { runProviderTests } from "@tessera/testing/suites"
import Zitadel from "@tessera/core/providers/zitadel"
import { standardOidcIdentities } from "./helpers.js"

const issuer = "https://acme-abc123.zitadel.cloud"

runProviderTests({
  provider: Zitadel,
  options: { issuer },
  issuer: { url: issuer, jwksUri: `${issuer}/oauth/v2/keys` },
  authorization: {
    url: `${issuer}/oauth/v2/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${issuer}/oauth/v2/token`, clientAuth: "client_secret_basic" },
  identities: standardOidcIdentities("zitadel.example", {
    picture: "https://zitadel.example/a.png",
  }),
})
