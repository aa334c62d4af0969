/** LINE Login v2.1: HS256 ID Tokens signed with the channel secret, state only, secret in the body. */
import { SignJWT } from "jose"
import { runProviderTests } from "@tessera/testing/suites"
import LINE from "@tessera/core/providers/line"

const channelSecret = "line-channel-secret-that-is-long-enough-for-hs256"

runProviderTests({
  provider: LINE,
  clientId: "1234567890",
  clientSecret: channelSecret,
  issuer: { url: "https://access.line.me", jwksUri: "https://api.line.me/oauth2/v2.1/certs" },
  authorization: {
    url: "https://access.line.me/oauth2/v2.1/authorize",
    scope: "openid profile email",
    checks: ["state"],
  },
  token: {
    url: "https://api.line.me/oauth2/v2.1/token",
    clientAuth: "client_secret_post",
    response: async ({ accessToken, refreshToken, claims }) => ({
      access_token: accessToken,
      expires_in: 2592000,
      id_token: await new SignJWT({ ...claims, amr: ["pwd"] })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .sign(new TextEncoder().encode(channelSecret)),
      refresh_token: refreshToken,
      scope: "openid profile email",
      token_type: "Bearer",
    }),
  },
  identities: {
    // LINE's ID Token has no email_verified claim: nothing is vouched for.
    verified: {
      sub: "U1234567890abcdef1234567890abcdef",
      claims: {
        name: "Ada LINE",
        picture: "https://profile.line-scdn.example/ada",
        email: "ada@line.example",
      },
      expect: {
        user: {
          id: "U1234567890abcdef1234567890abcdef",
          name: "Ada LINE",
          email: "ada@line.example",
          image: "https://profile.line-scdn.example/ada",
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "Ufedcba0987654321fedcba0987654321",
      claims: { name: "Bob" },
      expect: {
        user: { id: "Ufedcba0987654321fedcba0987654321", name: "Bob", email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})
