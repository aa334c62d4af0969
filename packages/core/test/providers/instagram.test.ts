/** Instagram Basic Display: a token response without token_type, Graph API fields. */
import { expect } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Instagram from "@tessera/core/providers/instagram"
import type { ProfileIdentity } from "./helpers.js"

runProviderTests<ProfileIdentity>({
  provider: Instagram,
  authorization: {
    url: "https://api.instagram.com/oauth/authorize",
    scope: "user_profile",
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://api.instagram.com/oauth/access_token",
    clientAuth: "client_secret_post",
    response: ({ accessToken, identity }) => ({
      access_token: accessToken,
      user_id: Number(identity.profile.id),
    }),
    error: () =>
      json(
        {
          error_type: "OAuthException",
          code: 400,
          error_message: "Matching code was not found or was already used",
        },
        400,
      ),
  },
  resources: [
    {
      url: "https://graph.instagram.com/me",
      response: ({ identity, request }) => {
        expect(request.url.searchParams.get("fields")).toBe("id,username,account_type,name")
        return identity.profile
      },
    },
  ],
  account: { token_type: "bearer" },
  identities: {
    verified: {
      sub: "ada",
      profile: { id: "17841405793187218", username: "ada.insta", account_type: "PERSONAL" },
      expect: {
        user: { id: "17841405793187218", name: "ada.insta", email: null, image: null },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: { id: "17841405793187219", username: "bob.insta", account_type: "BUSINESS" },
      expect: {
        user: { id: "17841405793187219", name: "bob.insta", email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})
