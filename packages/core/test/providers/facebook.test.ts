/** Facebook Login (OAuth 2.0): Graph API fields, nested picture, state, no vouched-for e-mail. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Facebook from "@tessera/core/providers/facebook"

const picture = (url: string) => ({
  data: { height: 50, width: 50, is_silhouette: false, url },
})

const suite = runProviderTests<{ sub: string; user: object; expect: any }>({
  provider: Facebook,
  authorization: {
    url: "https://www.facebook.com/dialog/oauth",
    scope: "email",
    checks: ["state"],
  },
  token: {
    url: "https://graph.facebook.com/oauth/access_token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      token_type: "bearer",
      expires_in: 5183944,
    }),
  },
  resources: [
    {
      url: "https://graph.facebook.com/me",
      response: ({ identity, request }) => {
        expect(request.url.searchParams.get("fields")).toBe("id,name,email,picture")
        return identity.user
      },
    },
  ],
  identities: {
    verified: {
      sub: "ada",
      user: {
        id: "10158000000000001",
        name: "Ada Facebook",
        email: "ada@fb.example",
        picture: picture("https://platform-lookaside.fbsbx.example/ada.jpg"),
      },
      expect: {
        user: {
          id: "10158000000000001",
          name: "Ada Facebook",
          email: "ada@fb.example",
          image: "https://platform-lookaside.fbsbx.example/ada.jpg",
        },
        // Facebook sends no flag saying it verified the address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      user: { id: "10158000000000002", name: "Bob", picture: picture("https://fb.example/b.jpg") },
      expect: {
        user: {
          id: "10158000000000002",
          name: "Bob",
          email: null,
          image: "https://fb.example/b.jpg",
        },
        verifiedEmail: null,
      },
    },
  },
})

test("the Graph API is asked for the four fields only", async () => {
  await suite.signIn("ada")
  const request = suite.standIn.requestsTo("https://graph.facebook.com/me").at(-1)!
  expect(request.url.searchParams.get("fields")).toBe("id,name,email,picture")
})
