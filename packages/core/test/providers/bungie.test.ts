/**
 * Bungie.net (OAuth 2.0): no scope, state, the API key on every API call, the
 * user wrapped in `Response.bungieNetUser`, errors as HTTP 200 with an `ErrorCode`.
 */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Bungie from "@tessera/core/providers/bungie"
import { signInFromEnv } from "./helpers.js"

const API_KEY = "6747e6eaab87471cb98620895e554c69"
const membershipsUrl = "https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/"

interface Identity {
  sub: string
  user: Record<string, unknown>
  /** Bungie's answer is a failure (HTTP 200, ErrorCode 99). */
  failing?: boolean
  expect: any
}

const bungieUser = (membershipId: string, displayName: string, picture?: string) => ({
  membershipId,
  uniqueName: `${displayName}#1234`,
  displayName,
  cachedBungieGlobalDisplayName: displayName,
  cachedBungieGlobalDisplayNameCode: 1234,
  ...(picture !== undefined ? { profilePicturePath: picture } : {}),
  locale: "en",
})

const suite = runProviderTests<Identity>({
  provider: Bungie,
  options: { apiKey: API_KEY },
  authorization: {
    url: "https://www.bungie.net/en/OAuth/Authorize",
    scope: null,
    checks: ["state"],
    params: { reauth: "true" },
  },
  token: {
    url: "https://www.bungie.net/platform/app/oauth/token/",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, refreshToken, identity }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: refreshToken,
      refresh_expires_in: 7776000,
      membership_id: identity.user.membershipId,
    }),
    error: () =>
      json({ error: "invalid_grant", error_description: "AuthorizationCodeInvalid" }, 400),
  },
  resources: [
    {
      url: membershipsUrl,
      response: ({ identity, request }) => {
        if (request.headers.get("x-api-key") !== API_KEY)
          return json({ ErrorCode: 2101, ErrorStatus: "ApiInvalidOrExpiredKey", Message: "" })
        if (identity.failing)
          return json({ ErrorCode: 99, ErrorStatus: "WebAuthRequired", Message: "", Response: {} })
        return {
          Response: { bungieNetUser: identity.user, destinyMemberships: [] },
          ErrorCode: 1,
          ErrorStatus: "Success",
          Message: "Ok",
          ThrottleSeconds: 0,
          MessageData: {},
        }
      },
    },
  ],
  identities: {
    verified: {
      sub: "ada",
      user: bungieUser("4611686018467284386", "Ada", "/img/profile/avatars/ada.jpg"),
      expect: {
        user: {
          id: "4611686018467284386",
          name: "Ada",
          email: null,
          image: "https://www.bungie.net/img/profile/avatars/ada.jpg",
        },
        // Bungie shares no address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      user: bungieUser("4611686018467284387", "Bob", "img/profile/avatars/bob.gif"),
      expect: {
        user: {
          id: "4611686018467284387",
          name: "Bob",
          email: null,
          image: "https://www.bungie.net/img/profile/avatars/bob.gif",
        },
        verifiedEmail: null,
      },
    },
    failing: {
      sub: "eve",
      user: bungieUser("4611686018467284388", "Eve"),
      failing: true,
      expect: {} as any,
    },
  },
})

test("the API key goes with the access token", async () => {
  await suite.signIn("ada")
  const request = suite.standIn.requestsTo(membershipsUrl).at(-1)!
  expect(request.headers.get("x-api-key")).toBe(API_KEY)
  expect(request.headers.get("authorization")).toMatch(/^Bearer at-/)
})

test("Auth.js's headers: { 'X-API-Key' } stands for apiKey", async () => {
  const { session } = await suite.signIn("ada", {
    options: { apiKey: undefined, headers: { "X-API-Key": API_KEY } },
  })
  expect(session.user.name).toBe("Ada")
})

test("AUTH_BUNGIE_KEY is the API key", async () => {
  const env = {
    AUTH_BUNGIE_ID: suite.clientId,
    AUTH_BUNGIE_SECRET: suite.clientSecret,
    AUTH_BUNGIE_KEY: API_KEY,
  }
  const { session } = await signInFromEnv(suite, Bungie, env, "ada")
  expect(session.user.name).toBe("Ada")
})

test("without an API key no profile is requested and nobody signs in", async () => {
  const before = suite.standIn.requestsTo(membershipsUrl).length
  const { session, errors } = await suite.signIn("ada", { options: { apiKey: undefined } })
  expect(session).toBeNull()
  expect(suite.standIn.requestsTo(membershipsUrl).length).toBe(before)
  expect(JSON.stringify(errors.map((e) => [e.message, (e.cause as any)?.err?.message]))).toMatch(
    /API key/,
  )
})

test("a Bungie error answered with HTTP 200 ends the sign-in", async () => {
  const { session, done } = await suite.signIn("eve")
  expect(session).toBeNull()
  expect(new URL(done.headers.get("location")!).searchParams.get("error")).toBe(
    "OAuthCallbackError",
  )
})

test("a user without a picture has no image", () => {
  const user = Bungie().profile!(
    { Response: { bungieNetUser: bungieUser("1", "Cy"), destinyMemberships: [] } } as any,
    {},
  )
  expect(user).toMatchObject({ id: "1", image: null })
})
