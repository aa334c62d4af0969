/** Medium: basicProfile, state, client_secret_post, a list-valued scope and expires_at in milliseconds. */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Medium from "@tessera/core/providers/medium"
import type { ProfileIdentity } from "./helpers.js"

const LIFETIME_MS = 60 * 24 * 3600 * 1000

const suite = runProviderTests<ProfileIdentity>({
  provider: Medium,
  authorization: {
    url: "https://medium.com/m/oauth/authorize",
    scope: "basicProfile",
    checks: ["state"],
  },
  token: {
    url: "https://api.medium.com/v1/tokens",
    clientAuth: "client_secret_post",
    response: ({ accessToken, refreshToken }) => ({
      token_type: "Bearer",
      access_token: accessToken,
      refresh_token: refreshToken,
      scope: ["basicProfile"],
      expires_at: Date.now() + LIFETIME_MS,
    }),
    error: () => json({ errors: [{ message: "Invalid code.", code: 6008 }] }, 400),
  },
  resources: [
    {
      url: "https://api.medium.com/v1/me",
      response: ({ identity }) => ({ data: identity.profile }),
    },
  ],
  account: { scope: "basicProfile", token_type: "bearer" },
  identities: {
    verified: {
      sub: "ada",
      profile: {
        id: "5303d74c64f66366f00cb9b2a94f3251bf5",
        username: "ada",
        name: "Ada Lovelace",
        url: "https://medium.com/@ada",
        imageUrl: "https://images.medium.example/fit/c/400/400/ada.png",
      },
      expect: {
        user: {
          id: "5303d74c64f66366f00cb9b2a94f3251bf5",
          name: "Ada Lovelace",
          email: null,
          image: "https://images.medium.example/fit/c/400/400/ada.png",
        },
        // Medium shares no e-mail address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: { id: "1f86e4c4", username: "bob", url: "https://medium.com/@bob" },
      expect: {
        user: { id: "1f86e4c4", name: "bob", email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("expires_at in milliseconds becomes the Account's expires_at in seconds", async () => {
  const { seen } = await suite.signIn("ada")
  const expected = (Date.now() + LIFETIME_MS) / 1000
  expect(Math.abs(seen.account.expires_at - expected)).toBeLessThan(60)
})
