/** HubSpot: the user from the access token's metadata, the token in the path. */
import { expect } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import HubSpot from "@tessera/core/providers/hubspot"
import type { ProfileIdentity } from "./helpers.js"

const info = (userId: number, user: string) => ({
  user,
  user_id: userId,
  hub_domain: "acme.example",
  hub_id: 62515,
  app_id: 456,
  scopes: ["oauth"],
  expires_in: 1754,
  token_type: "access",
})

runProviderTests<ProfileIdentity>({
  provider: HubSpot,
  authorization: {
    url: "https://app.hubspot.com/oauth/authorize",
    scope: "oauth",
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://api.hubapi.com/oauth/v1/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken, refreshToken }) => ({
      token_type: "bearer",
      refresh_token: refreshToken,
      access_token: accessToken,
      expires_in: 1800,
    }),
  },
  resources: [
    {
      url: "https://api.hubapi.com/oauth/v1/access-tokens/*",
      response: ({ identity, request, accessToken }) => {
        expect(request.url.pathname).toBe(`/oauth/v1/access-tokens/${accessToken}`)
        return { token: accessToken, ...identity.profile }
      },
    },
  ],
  identities: {
    verified: {
      sub: "ada",
      profile: info(123, "ada@hubspot.example"),
      expect: {
        user: { id: "123", name: "ada@hubspot.example", email: "ada@hubspot.example", image: null },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: info(456, "bob@hubspot.example"),
      expect: {
        user: { id: "456", name: "bob@hubspot.example", email: "bob@hubspot.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})
