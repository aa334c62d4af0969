/** EVE Online (EVE SSO): scope publicData, state, HTTP Basic, the character from /oauth/verify. */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import EVEOnline from "@tessera/core/providers/eveonline"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const character = (id: number, name: string, ownerHash: string) => ({
  CharacterID: id,
  CharacterName: name,
  ExpiresOn: "2030-01-01T00:20:00",
  Scopes: "publicData",
  TokenType: "Character",
  CharacterOwnerHash: ownerHash,
  IntellectualProperty: "EVE",
})

const suite = runProviderTests<ProfileIdentity>({
  provider: EVEOnline,
  authorization: {
    url: "https://login.eveonline.com/v2/oauth/authorize",
    scope: "publicData",
    checks: ["state"],
  },
  token: {
    url: "https://login.eveonline.com/v2/oauth/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, refreshToken }) => ({
      access_token: accessToken,
      expires_in: 1199,
      token_type: "Bearer",
      refresh_token: refreshToken,
    }),
    error: () =>
      json({ error: "invalid_grant", error_description: "Authorization code is invalid." }, 400),
  },
  resources: [profileAt("https://login.eveonline.com/oauth/verify")],
  identities: {
    verified: {
      sub: "ada",
      profile: character(2112625428, "Ada Capsuleer", "XM4D8mHkJ8iVH5nV1e5PZ7HPNCw="),
      expect: {
        user: {
          id: "2112625428",
          name: "Ada Capsuleer",
          email: null,
          image: "https://images.evetech.net/characters/2112625428/portrait?size=128",
        },
        // EVE SSO shares no e-mail address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: character(95465499, "Bob Hauler", "7cW0bB9lW2m0n4sR9UQ0R5vJr2o="),
      expect: {
        user: {
          id: "95465499",
          name: "Bob Hauler",
          email: null,
          image: "https://images.evetech.net/characters/95465499/portrait?size=128",
        },
        verifiedEmail: null,
      },
    },
  },
})

test("the owner hash reaches the callbacks, to tell a sold character from its seller", async () => {
  const { seen } = await suite.signIn("ada")
  expect(seen.profile.CharacterOwnerHash).toBe("XM4D8mHkJ8iVH5nV1e5PZ7HPNCw=")
  expect(seen.account.providerAccountId).toBe("2112625428")
})
