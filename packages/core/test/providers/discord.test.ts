/** Discord (OAuth 2.0): avatar URLs built from hashes, `verified`. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Discord from "@tessera/core/providers/discord"

const user = (over: Record<string, unknown>) => ({
  id: "80351110224678912",
  username: "nelly",
  discriminator: "0",
  global_name: null,
  avatar: null,
  email: null,
  verified: false,
  ...over,
})

const suite = runProviderTests<{ sub: string; user: object; expect: any }>({
  provider: Discord,
  authorization: {
    url: "https://discord.com/oauth2/authorize",
    scope: "identify email",
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://discord.com/api/oauth2/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken, refreshToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 604800,
      refresh_token: refreshToken,
      scope: "identify email",
    }),
  },
  resources: [
    { url: "https://discord.com/api/users/@me", response: ({ identity }) => identity.user },
  ],
  identities: {
    verified: {
      sub: "static",
      user: user({
        global_name: "Nelly",
        avatar: "8342729096ea3675442027381ff50dfe",
        email: "nelly@discord.example",
        verified: true,
      }),
      expect: {
        user: {
          id: "80351110224678912",
          name: "Nelly",
          email: "nelly@discord.example",
          image:
            "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
        },
        verifiedEmail: "nelly@discord.example",
      },
    },
    unverified: {
      sub: "animated",
      user: user({
        id: "80351110224678913",
        username: "anim",
        avatar: "a_1269e74af4df7417b13759eae50c83dc",
        email: "anim@discord.example",
        verified: false,
      }),
      expect: {
        user: {
          id: "80351110224678913",
          name: "anim",
          email: "anim@discord.example",
          image:
            "https://cdn.discordapp.com/avatars/80351110224678913/a_1269e74af4df7417b13759eae50c83dc.gif",
        },
        verifiedEmail: null,
      },
    },
    legacy: {
      sub: "legacy",
      user: user({ username: "legacy", discriminator: "1337" }),
      expect: {},
    },
    fresh: { sub: "fresh", user: user({ username: "fresh" }), expect: {} },
  },
})

test("no avatar: Discord's default avatar, by discriminator or by id", async () => {
  // Legacy discriminator 1337 -> 1337 % 5 = 2; unique user name -> (id >> 22) % 6.
  expect((await suite.signIn("legacy")).session.user.image).toBe(
    "https://cdn.discordapp.com/embed/avatars/2.png",
  )
  const expected = Number((80351110224678912n >> 22n) % 6n)
  expect((await suite.signIn("fresh")).session.user.image).toBe(
    `https://cdn.discordapp.com/embed/avatars/${expected}.png`,
  )
})
