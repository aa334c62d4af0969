/** Eventbrite (OAuth 2.0): secret in the body, the primary of `emails` and its `verified` flag, the image CDN. */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Eventbrite from "@tessera/core/providers/eventbrite"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const user = (
  id: string,
  name: string,
  emails: Array<{ email: string; verified: boolean; primary: boolean }>,
  imageId: string | null = null,
) => ({
  id,
  name,
  first_name: name.split(" ")[0],
  last_name: name.split(" ")[1] ?? "",
  is_public: false,
  emails,
  image_id: imageId,
})

const suite = runProviderTests<ProfileIdentity>({
  provider: Eventbrite,
  authorization: {
    url: "https://www.eventbrite.com/oauth/authorize",
    scope: "user.profile",
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://www.eventbrite.com/oauth/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({ access_token: accessToken, token_type: "bearer" }),
    error: () =>
      json({ error: "invalid_grant", error_description: "Code is invalid or expired." }, 400),
  },
  resources: [profileAt("https://www.eventbriteapi.com/v3/users/me/")],
  identities: {
    verified: {
      sub: "ada",
      profile: user(
        "1234567890",
        "Ada Eventbrite",
        [
          { email: "old@eventbrite.example", verified: false, primary: false },
          { email: "ada@eventbrite.example", verified: true, primary: true },
        ],
        "98765432",
      ),
      expect: {
        user: {
          id: "1234567890",
          name: "Ada Eventbrite",
          email: "ada@eventbrite.example",
          image:
            "https://img.evbuc.com/https%3A%2F%2Fcdn.evbuc.com%2Fimages%2F98765432%2F1%2Foriginal.jpg",
        },
        verifiedEmail: "ada@eventbrite.example",
      },
    },
    unverified: {
      sub: "bob",
      profile: user("1234567891", "Bob Eventbrite", [
        { email: "bob@eventbrite.example", verified: false, primary: true },
      ]),
      expect: {
        user: {
          id: "1234567891",
          name: "Bob Eventbrite",
          email: "bob@eventbrite.example",
          image: null,
        },
        verifiedEmail: null,
      },
    },
  },
})

test("a verified address that is not the primary one vouches for nothing", () => {
  const rule = Eventbrite().verifiedEmail!
  const profile = user("1", "Eve", [
    { email: "eve@eventbrite.example", verified: false, primary: true },
    { email: "ceo@victim.example", verified: true, primary: false },
  ])
  expect(rule(profile as any, {})).toBeNull()
  expect(rule({ ...profile, emails: undefined } as any, {})).toBeNull()
})

test("the primary address is the user's e-mail even when another comes first", async () => {
  const { session, seen } = await suite.signIn("ada")
  expect(seen.profile.emails[0].email).toBe("old@eventbrite.example")
  expect(session.user.email).toBe("ada@eventbrite.example")
})
