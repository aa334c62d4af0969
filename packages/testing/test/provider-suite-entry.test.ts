/**
 * `runProviderTests` from the main entry, as issue 10 names it: it registers the same
 * conformance suite as `@tessera/testing/suites`' (here against Resend's mail API and GitHub's
 * endpoints, on loopback stand-ins), and its handle answers in the file's tests.
 */
import { expect, test } from "vitest"
import { json, runProviderTests } from "@tessera/testing"
import GitHub from "@tessera/core/providers/github"
import Resend from "@tessera/core/providers/resend"

const mail = runProviderTests({
  provider: Resend,
  api: {
    url: "https://api.resend.com/emails",
    check({ request, apiKey, json: body, link }) {
      expect(request.headers.get("authorization")).toBe(`Bearer ${apiKey}`)
      expect(body.text).toContain(link.href)
    },
    success: () => json({ id: "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794" }),
    failure: () => json({ statusCode: 403, name: "validation_error", message: "no" }, 403),
  },
})

const oauth = runProviderTests({
  provider: GitHub,
  authorization: {
    url: "https://github.com/login/oauth/authorize",
    scope: "read:user user:email",
    checks: ["pkce", "state"],
  },
  token: {
    url: "https://github.com/login/oauth/access_token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({ access_token: accessToken, token_type: "bearer" }),
  },
  account: { token_type: "bearer" },
  resources: [
    { url: "https://api.github.com/user", response: ({ identity }) => identity.user },
    {
      url: "https://api.github.com/user/emails",
      response: () => json({ message: "Not Found" }, 404),
    },
  ],
  identities: {
    verified: {
      sub: "octo",
      user: {
        login: "octocat",
        id: 1,
        name: "Octo",
        email: "octo@github.example",
        avatar_url: null,
      },
      expect: {
        user: { id: "1", name: "Octo", email: "octo@github.example", image: null },
        verifiedEmail: "octo@github.example",
      },
    },
    unverified: {
      sub: "unverified",
      user: { login: "cat", id: 2, name: null, email: null, avatar_url: null },
      expect: { user: { id: "2", name: "cat", email: null, image: null }, verifiedEmail: null },
    },
  },
})

test("the handles answer in the file's tests", async () => {
  expect(mail.standIn.requestsTo("https://api.resend.com/emails").length).toBeGreaterThan(0)
  expect(mail.provider().id).toBe("resend")
  const { session } = await oauth.signIn("octo")
  expect(session.user.email).toBe("octo@github.example")
})
