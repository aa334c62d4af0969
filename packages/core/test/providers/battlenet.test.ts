/** Battle.net (OpenID Connect): regional issuers, the `openid` scope, BattleTags. */
import { runProviderTests } from "@tessera/testing/suites"
import BattleNet from "@tessera/core/providers/battlenet"

const issuer = "https://eu.battle.net/oauth"

runProviderTests({
  provider: BattleNet,
  options: { issuer },
  issuer: { url: issuer, jwksUri: `${issuer}/jwks/certs` },
  authorization: { url: `${issuer}/authorize`, scope: "openid", checks: ["pkce", "nonce"] },
  token: { url: `${issuer}/token`, clientAuth: "client_secret_basic" },
  identities: {
    verified: {
      sub: "123456789",
      claims: { battle_tag: "Ada#1234" },
      expect: {
        user: { id: "123456789", name: "Ada#1234", email: null, image: null },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "987654321",
      claims: { battle_tag: "Bob#5678" },
      expect: {
        user: { id: "987654321", name: "Bob#5678", email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})
