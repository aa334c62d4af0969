/** Descope (OpenID Connect): the issuer from the project id, PKCE + state. */
import { runProviderTests } from "@tessera/testing/suites"
import Descope from "@tessera/core/providers/descope"
import { standardOidcIdentities } from "./helpers.js"

const project = "P2abcDEFghiJKLmnoPQRstuVWXyz"
const issuer = `https://api.descope.com/${project}`

runProviderTests({
  provider: Descope,
  clientId: project,
  issuer: { url: issuer, jwksUri: `${issuer}/.well-known/jwks.json` },
  authorization: {
    url: "https://api.descope.com/oauth2/v1/authorize",
    scope: "openid profile email",
    checks: ["pkce", "state"],
  },
  token: { url: "https://api.descope.com/oauth2/v1/token", clientAuth: "client_secret_basic" },
  identities: standardOidcIdentities("descope.example", {
    picture: "https://descope.example/a.png",
  }),
})
