/** authentik (OpenID Connect): an issuer per application, with a trailing slash. */
import { runProviderTests } from "@tessera/testing/suites"
import Authentik from "@tessera/core/providers/authentik"
import { standardOidcIdentities } from "./helpers.js"

const host = "https://auth.acme.example"
const issuer = `${host}/application/o/my-app/`

runProviderTests({
  provider: Authentik,
  options: { issuer },
  issuer: { url: issuer, jwksUri: `${issuer}jwks/` },
  authorization: {
    url: `${host}/application/o/authorize/`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${host}/application/o/token/`, clientAuth: "client_secret_basic" },
  identities: standardOidcIdentities("authentik.example", {
    preferred_username: "user",
    groups: [],
  }),
})
