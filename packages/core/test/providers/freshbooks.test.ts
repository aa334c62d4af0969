/** FreshBooks: client_secret_post, PKCE and state, the identity wrapped in `response`. */
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Freshbooks from "@tessera/core/providers/freshbooks"
import type { ProfileIdentity } from "./helpers.js"

runProviderTests<ProfileIdentity>({
  provider: Freshbooks,
  authorization: {
    url: "https://auth.freshbooks.com/service/auth/oauth/authorize",
    scope: null,
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://api.freshbooks.com/auth/oauth/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken, refreshToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 43200,
      refresh_token: refreshToken,
      scope: "user:profile:read",
      created_at: 1700000000,
    }),
    error: () =>
      json(
        {
          error: "invalid_grant",
          error_description:
            "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
        },
        401,
      ),
  },
  resources: [
    {
      url: "https://api.freshbooks.com/auth/api/v1/users/me",
      response: ({ identity }) => ({ response: identity.profile }),
    },
  ],
  identities: {
    verified: {
      sub: "ada",
      profile: {
        id: 2192788,
        identity_id: 2192788,
        first_name: "Ada",
        last_name: "Lovelace",
        email: "ada@freshbooks.example",
        language: "en",
        business_memberships: [],
      },
      expect: {
        user: { id: "2192788", name: "Ada Lovelace", email: "ada@freshbooks.example", image: null },
        // FreshBooks documents no flag saying it verified the address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: { id: 2192789, first_name: "Bob", last_name: null, email: null },
      expect: {
        user: { id: "2192789", name: "Bob", email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})
