/**
 * GitHub against a stand-in of github.com and api.github.com: the conformance
 * suite, then GitHub's own ways (private addresses from /user/emails, the
 * 200-with-error token response, GitHub Enterprise Server).
 */
import { expect, test } from "vitest"
import { FakeIssuer, json, setsSession, type Recorded } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import GitHub, { type GitHubEmail } from "@tessera/core/providers/github"
import { customFetch } from "@tessera/core"
import { configFor, signInThrough } from "./helpers.js"

interface Identity {
  sub: string
  user: Record<string, unknown>
  emails?: GitHubEmail[]
  expect: any
}

const octocat = {
  login: "octocat",
  id: 583231,
  name: "The Octocat",
  email: "octocat@github.example",
  avatar_url: "https://avatars.githubusercontent.example/u/583231",
}

function expectGitHubHeaders(request: Recorded) {
  expect(request.headers.get("accept")).toBe("application/vnd.github+json")
  expect(request.headers.get("user-agent")).toBeTruthy()
}

const suite = runProviderTests<Identity>({
  provider: GitHub,
  authorization: {
    url: "https://github.com/login/oauth/authorize",
    scope: "read:user user:email",
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://github.com/login/oauth/access_token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      token_type: "bearer",
      scope: "read:user,user:email",
    }),
    // GitHub answers a bad code with status 200 and an error body.
    error: () => ({
      error: "bad_verification_code",
      error_description: "The code passed is incorrect or expired.",
      error_uri:
        "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#bad-verification-code",
    }),
  },
  resources: [
    {
      url: "https://api.github.com/user",
      response: ({ identity, request }) => {
        expectGitHubHeaders(request)
        return identity.user
      },
    },
    {
      url: "https://api.github.com/user/emails",
      response: ({ identity, request }) => {
        expectGitHubHeaders(request)
        return identity.emails ?? json({ message: "Not Found" }, 404)
      },
    },
  ],
  account: { token_type: "bearer", scope: "read:user,user:email" },
  identities: {
    verified: {
      sub: "octo",
      user: octocat,
      expect: {
        user: {
          id: "583231",
          name: "The Octocat",
          email: "octocat@github.example",
          image: octocat.avatar_url,
        },
        verifiedEmail: "octocat@github.example",
      },
    },
    unverified: {
      sub: "unverified",
      user: { login: "unverified-cat", id: 1002, name: null, email: null, avatar_url: null },
      emails: [
        { email: "maybe@github.example", primary: true, verified: false, visibility: "private" },
      ],
      expect: {
        user: { id: "1002", name: "unverified-cat", email: null, image: null },
        verifiedEmail: null,
      },
    },
    hidden: {
      sub: "hidden",
      user: {
        login: "hidden-cat",
        id: 1001,
        name: null,
        email: null,
        avatar_url: "https://avatars.githubusercontent.example/u/1001",
      },
      emails: [
        { email: "old@github.example", primary: false, verified: true, visibility: null },
        { email: "hidden@github.example", primary: true, verified: true, visibility: "private" },
      ],
      expect: {},
    },
  },
})

test("a public e-mail needs no /user/emails call", async () => {
  const before = suite.standIn.requestsTo("https://api.github.com/user/emails").length
  await suite.signIn("octo")
  expect(suite.standIn.requestsTo("https://api.github.com/user/emails").length).toBe(before)
})

test("a private e-mail: the primary verified address from /user/emails", async () => {
  const { session, seen } = await suite.signIn("hidden")
  expect(session.user).toEqual({
    name: "hidden-cat",
    email: "hidden@github.example",
    image: "https://avatars.githubusercontent.example/u/1001",
  })
  expect(GitHub().verifiedEmail!(seen.profile, {})).toBe("hidden@github.example")
})

test("the 200-with-error token response is logged as GitHub's error", async () => {
  const { errors } = await suite.signIn("octo", { outcome: "tokenError" })
  expect(errors.at(-1)?.message).toContain("bad_verification_code")
})

test("GitHub Enterprise Server: endpoints under the base URL and /api/v3", async () => {
  const base = "https://github.acme.example"
  const ghe = await FakeIssuer.create({
    standIn: suite.standIn,
    issuer: base,
    authorizationEndpoint: `${base}/login/oauth/authorize`,
    tokenEndpoint: `${base}/login/oauth/access_token`,
    userinfoEndpoint: `${base}/api/v3/user`,
    clientId: "ghe",
    clientSecret: "ghe-secret",
    authMethod: "client_secret_post",
    userinfo: () => json(octocat),
  })
  const provider = GitHub({
    clientId: "ghe",
    clientSecret: "ghe-secret",
    enterprise: { baseUrl: base },
    [customFetch]: suite.standIn.fetch,
  })
  const { done, session } = await signInThrough(configFor(provider), ghe, "octo")
  expect(setsSession(done)).toBe(true)
  expect(session.user.name).toBe("The Octocat")
})
