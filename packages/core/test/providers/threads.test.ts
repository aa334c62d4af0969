/** Threads (OAuth 2.0): state, secret in the body, no token_type, the flat /me under `data`. */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Threads from "@tessera/core/providers/threads"
import type { ProfileIdentity } from "./helpers.js"

const suite = runProviderTests<ProfileIdentity>({
  provider: Threads,
  authorization: {
    url: "https://threads.net/oauth/authorize",
    scope: "threads_basic",
    checks: ["state"],
  },
  token: {
    url: "https://graph.threads.net/oauth/access_token",
    clientAuth: "client_secret_post",
    response: ({ accessToken, identity }) => ({
      access_token: accessToken,
      user_id: Number(identity.profile.id),
    }),
    error: () =>
      json(
        {
          error: {
            message: "Invalid verification code format.",
            type: "OAuthException",
            code: 100,
            fbtrace_id: "AbCdEf",
          },
        },
        400,
      ),
  },
  resources: [
    {
      url: "https://graph.threads.net/v1.0/me",
      response: ({ identity, request }) => {
        expect(request.url.searchParams.get("fields")).toBe(
          "id,username,threads_profile_picture_url",
        )
        return identity.profile
      },
    },
  ],
  identities: {
    verified: {
      sub: "ada",
      profile: {
        id: "17841400000000001",
        username: "ada.threads",
        threads_profile_picture_url: "https://scontent.cdninstagram.example/ada.jpg",
      },
      expect: {
        user: {
          id: "17841400000000001",
          name: "ada.threads",
          email: null,
          image: "https://scontent.cdninstagram.example/ada.jpg",
        },
        // Threads shares no address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: { id: "17841400000000002" },
      expect: {
        user: { id: "17841400000000002", name: null, email: null, image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("the raw profile keeps /me's fields under data, as Auth.js's ThreadsProfile", async () => {
  const { seen } = await suite.signIn("ada")
  expect(seen.profile).toEqual({
    data: {
      id: "17841400000000001",
      username: "ada.threads",
      threads_profile_picture_url: "https://scontent.cdninstagram.example/ada.jpg",
    },
  })
  expect(seen.account.token_type).toBe("bearer")
})
