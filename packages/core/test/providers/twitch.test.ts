/**
 * Twitch (OpenID Connect): the `claims` request, a JSON-array `scope` in the
 * token response, client_secret_post, state + nonce.
 */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Twitch from "@tessera/core/providers/twitch"

const suite = runProviderTests({
  provider: Twitch,
  issuer: { url: "https://id.twitch.tv/oauth2", jwksUri: "https://id.twitch.tv/oauth2/keys" },
  authorization: {
    url: "https://id.twitch.tv/oauth2/authorize",
    scope: "openid user:read:email",
    checks: ["state", "nonce"],
  },
  token: {
    url: "https://id.twitch.tv/oauth2/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken, refreshToken, idToken }) => ({
      access_token: accessToken,
      expires_in: 14124,
      id_token: idToken,
      refresh_token: refreshToken,
      scope: ["openid", "user:read:email"],
      token_type: "bearer",
    }),
    error: () => json({ status: 400, message: "Invalid authorization code" }, 400),
  },
  account: { scope: "openid user:read:email" },
  identities: {
    verified: {
      sub: "12826",
      claims: {
        azp: "tessera-test-client",
        preferred_username: "ada_streams",
        email: "ada@twitch.example",
        email_verified: true,
        picture: "https://static-cdn.jtvnw.example/ada.png",
      },
      expect: {
        user: {
          id: "12826",
          name: "ada_streams",
          email: "ada@twitch.example",
          image: "https://static-cdn.jtvnw.example/ada.png",
        },
        verifiedEmail: "ada@twitch.example",
      },
    },
    unverified: {
      sub: "12827",
      claims: { preferred_username: "bob", email: "bob@twitch.example", email_verified: false },
      expect: {
        user: { id: "12827", name: "bob", email: "bob@twitch.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("the claims request asks for e-mail, verification, picture and user name", async () => {
  const { location } = await suite.signIn("12826")
  expect(JSON.parse(location.searchParams.get("claims")!)).toEqual({
    id_token: { email: null, email_verified: null, picture: null, preferred_username: null },
  })
})
