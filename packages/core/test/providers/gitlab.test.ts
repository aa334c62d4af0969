/** GitLab (OAuth 2.0), gitlab.com and a self-managed instance. */
import { expect, test } from "vitest"
import { FakeIssuer, json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import { customFetch } from "@tessera/core"
import GitLab from "@tessera/core/providers/gitlab"
import { configFor, signInThrough } from "./helpers.js"

const profile = (id: number, email: string, confirmed: boolean) => ({
  id,
  username: `user${id}`,
  name: `User ${id}`,
  email,
  avatar_url: `https://gitlab.example/uploads/-/system/user/avatar/${id}/avatar.png`,
  state: "active",
  web_url: `https://gitlab.com/user${id}`,
  confirmed_at: confirmed ? "2024-01-01T00:00:00.000Z" : null,
})

const suite = runProviderTests<{ sub: string; user: object; expect: any }>({
  provider: GitLab,
  authorization: {
    url: "https://gitlab.com/oauth/authorize",
    scope: "read_user",
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://gitlab.com/oauth/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken, refreshToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 7200,
      refresh_token: refreshToken,
      scope: "read_user",
      created_at: 1_700_000_000,
    }),
  },
  resources: [{ url: "https://gitlab.com/api/v4/user", response: ({ identity }) => identity.user }],
  account: { scope: "read_user" },
  identities: {
    verified: {
      sub: "ada",
      user: profile(7, "ada@gitlab.example", true),
      expect: {
        user: {
          id: "7",
          name: "User 7",
          email: "ada@gitlab.example",
          image: profile(7, "", true).avatar_url,
        },
        verifiedEmail: "ada@gitlab.example",
      },
    },
    unverified: {
      sub: "bob",
      user: profile(8, "bob@gitlab.example", false),
      expect: {
        user: {
          id: "8",
          name: "User 8",
          email: "bob@gitlab.example",
          image: profile(8, "", false).avatar_url,
        },
        verifiedEmail: null,
      },
    },
  },
})

test("a self-managed instance through baseUrl", async () => {
  const base = "https://gitlab.acme.example"
  const issuer = await FakeIssuer.create({
    standIn: suite.standIn,
    issuer: base,
    authorizationEndpoint: `${base}/oauth/authorize`,
    tokenEndpoint: `${base}/oauth/token`,
    userinfoEndpoint: `${base}/api/v4/user`,
    clientId: "gitlab-app",
    clientSecret: "gitlab-secret",
    authMethod: "client_secret_post",
    userinfo: () => json(profile(7, "ada@gitlab.example", true)),
  })
  const provider = GitLab({
    clientId: "gitlab-app",
    clientSecret: "gitlab-secret",
    baseUrl: base,
    [customFetch]: suite.standIn.fetch,
  })
  const { session } = await signInThrough(configFor(provider), issuer, "ada")
  expect(session.user.email).toBe("ada@gitlab.example")
})

test("GitLab's OpenID Connect userinfo (`sub`, no `id`) keys the account by `sub`, as in Auth.js", async () => {
  const base = "https://gitlab.com"
  const issuer = await FakeIssuer.create({
    standIn: suite.standIn,
    issuer: base,
    authorizationEndpoint: `${base}/oauth/authorize`,
    tokenEndpoint: `${base}/oauth/token`,
    userinfoEndpoint: `${base}/oauth/userinfo`,
    clientId: "gitlab-app",
    clientSecret: "gitlab-secret",
    authMethod: "client_secret_post",
    userinfo: () =>
      json({
        sub: "7",
        sub_legacy: "2d4f6a",
        name: "User 7",
        nickname: "user7",
        preferred_username: "user7",
        email: "ada@gitlab.example",
        email_verified: true,
        picture: "https://gitlab.com/uploads/-/system/user/avatar/7/avatar.png",
        groups: [],
      }),
  })
  const provider = GitLab({
    clientId: "gitlab-app",
    clientSecret: "gitlab-secret",
    // With `openid`, GitLab's token response carries an ID Token issued by gitlab.com.
    issuer: base,
    authorization: { params: { scope: "openid read_user" } },
    userinfo: `${base}/oauth/userinfo`,
    [customFetch]: suite.standIn.fetch,
  })
  const { session, seen, errors } = await signInThrough(configFor(provider), issuer, "ada")
  expect(errors).toEqual([])
  expect(seen.account).toMatchObject({ provider: "gitlab", providerAccountId: "7" })
  expect(session?.user).toMatchObject({ name: "User 7", email: "ada@gitlab.example" })
})
