/** Logto (OpenID Connect): offline_access, user name as the name fallback. */
import { runProviderTests } from "@tessera/testing/suites"
import Logto from "@tessera/core/providers/logto"
import { standardOidcIdentities } from "./helpers.js"

const issuer = "https://acme.logto.example/oidc"

runProviderTests({
  provider: Logto,
  options: { issuer },
  issuer: { url: issuer, jwksUri: `${issuer}/jwks` },
  authorization: {
    url: `${issuer}/auth`,
    scope: "offline_access openid email profile",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${issuer}/token`, clientAuth: "client_secret_basic" },
  identities: standardOidcIdentities("logto.example", { username: "user" }),
})
