/** Foursquare: client_secret_post, `{ access_token }` alone, the token and version in the query, a wrapped user. */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Foursquare from "@tessera/core/providers/foursquare"
import type { ProfileIdentity } from "./helpers.js"

const SELF = "https://api.foursquare.com/v2/users/self"

const suite = runProviderTests<ProfileIdentity>({
  provider: Foursquare,
  authorization: {
    url: "https://foursquare.com/oauth2/authenticate",
    scope: null,
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://foursquare.com/oauth2/access_token",
    clientAuth: "client_secret_post",
    // Foursquare answers with the token alone.
    response: ({ accessToken }) => ({ access_token: accessToken }),
    error: () => json({ error: "invalid_grant" }, 400),
  },
  resources: [
    {
      url: SELF,
      response: ({ identity }) => ({
        meta: { code: 200, requestId: "5f0c0000000000000000000a" },
        response: { user: identity.profile },
      }),
    },
  ],
  account: { token_type: "bearer" },
  identities: {
    verified: {
      sub: "ada",
      profile: {
        id: "1234567",
        firstName: "Ada",
        lastName: "Lovelace",
        photo: { prefix: "https://fastly.4sqi.example/img/user/", suffix: "/ada.jpg" },
        contact: { email: "ada@foursquare.example" },
      },
      expect: {
        user: {
          id: "1234567",
          name: "Ada Lovelace",
          email: "ada@foursquare.example",
          image: "https://fastly.4sqi.example/img/user/original/ada.jpg",
        },
        // Foursquare sends no flag saying it verified the address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: { id: "7654321", firstName: "Bob", contact: {} },
      expect: {
        user: { id: "7654321", name: "Bob", email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("the user API gets the token as oauth_token and the API version as v, no bearer header", async () => {
  const { tokenBody } = await suite.signIn("ada")
  const request = suite.standIn.requestsTo(SELF).at(-1)!
  expect(request.url.searchParams.get("oauth_token")).toBe(tokenBody!.access_token)
  expect(request.url.searchParams.get("v")).toBe("20230131")
  expect(request.headers.has("authorization")).toBe(false)
})

test("apiVersion names another version", async () => {
  const { session } = await suite.signIn("ada", { options: { apiVersion: "20240601" } })
  expect(session.user.name).toBe("Ada Lovelace")
  const request = suite.standIn.requestsTo(SELF).at(-1)!
  expect(request.url.searchParams.get("v")).toBe("20240601")
})
