/** Figma: files:read, state, HTTP Basic, a token response without token_type, /v1/me. */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Figma from "@tessera/core/providers/figma"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const suite = runProviderTests<ProfileIdentity>({
  provider: Figma,
  authorization: { url: "https://www.figma.com/oauth", scope: "files:read", checks: ["state"] },
  token: {
    url: "https://api.figma.com/v1/oauth/token",
    clientAuth: "client_secret_basic",
    // Figma's token response: no token_type.
    response: ({ accessToken, refreshToken, identity }) => ({
      user_id: Number(identity.profile.id),
      user_id_string: identity.profile.id,
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: 7776000,
    }),
    error: () => json({ error: true, status: 400, message: "Invalid code" }, 400),
  },
  resources: [profileAt("https://api.figma.com/v1/me")],
  account: { token_type: "bearer" },
  identities: {
    verified: {
      sub: "ada",
      profile: {
        id: "1234567890",
        email: "ada@figma.example",
        handle: "Ada Lovelace",
        img_url: "https://s3-alpha.figma.example/profile/ada.png",
      },
      expect: {
        user: {
          id: "1234567890",
          name: "Ada Lovelace",
          email: "ada@figma.example",
          image: "https://s3-alpha.figma.example/profile/ada.png",
        },
        // Figma sends no flag saying it verified the address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: { id: "1234567891", email: "bob@figma.example", handle: "bob", img_url: null },
      expect: {
        user: { id: "1234567891", name: "bob", email: "bob@figma.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("the token without token_type is used as a bearer token", async () => {
  const { session, tokenBody } = await suite.signIn("ada")
  expect(tokenBody).not.toHaveProperty("token_type")
  expect(session.user.name).toBe("Ada Lovelace")
  const me = suite.standIn.requestsTo("https://api.figma.com/v1/me").at(-1)!
  expect(me.headers.get("authorization")).toBe(`Bearer ${tokenBody!.access_token}`)
})
