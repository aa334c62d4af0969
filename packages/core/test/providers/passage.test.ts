/** Passage by 1Password (OpenID Connect): per-app issuer, HTTP Basic client authentication. */
import { runProviderTests } from "@tessera/testing/suites"
import Passage from "@tessera/core/providers/passage"

const issuer = "https://auth.passage.id/v1/apps/Wm5hZ3Vlc3Npbmc"

runProviderTests({
  provider: Passage,
  options: { issuer },
  issuer: { url: issuer, jwksUri: `${issuer}/.well-known/jwks.json` },
  authorization: {
    url: `${issuer}/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${issuer}/token`, clientAuth: "client_secret_basic" },
  identities: {
    verified: {
      sub: "pSUYnhmw3jDLgDsnXqECmrDm",
      claims: { email: "ada@passage.example", email_verified: true, azp: "tessera-test-client" },
      expect: {
        user: {
          id: "pSUYnhmw3jDLgDsnXqECmrDm",
          name: null,
          email: "ada@passage.example",
          image: null,
        },
        verifiedEmail: "ada@passage.example",
      },
    },
    unverified: {
      // A phone-only Passage user: no address at all.
      sub: "pBobPhoneOnly0000000000",
      claims: { phone_number: "+15555550123", phone_number_verified: true },
      expect: {
        user: { id: "pBobPhoneOnly0000000000", name: null, email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})
