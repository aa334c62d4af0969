/** TikTok Login Kit: `client_key`, the secret in the body, `{ data: { user }, error }` profiles. */
import { expect, test } from "vitest"
import { AppBrowser, json, readForm, StandIn } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import TikTok from "@tessera/core/providers/tiktok"
import { customFetch, refreshTokenSet, setEnvDefaults } from "@tessera/core"
import { ORIGIN, SECRET, type ProfileIdentity } from "./helpers.js"

const user = (openId: string, name: string) => ({
  data: {
    user: {
      open_id: openId,
      union_id: `union-${openId}`,
      avatar_url: `https://p16-sign.tiktokcdn.example/${openId}.jpeg`,
      display_name: name,
    },
  },
  error: { code: "ok", message: "", log_id: "20240101000000ABCDEF" },
})

const suite = runProviderTests<ProfileIdentity>({
  provider: TikTok,
  authorization: {
    url: "https://www.tiktok.com/v2/auth/authorize",
    scope: "user.info.basic",
    checks: ["pkce", "state"],
    params: { client_key: "tessera-test-client" },
  },
  token: {
    url: "https://open.tiktokapis.com/v2/oauth/token/",
    clientAuth: (request, form) =>
      form.get("client_key") === "tessera-test-client" &&
      form.get("client_secret") === "tessera-test-secret" &&
      !form.has("client_id") &&
      !request.headers.has("authorization"),
    response: ({ accessToken, refreshToken, identity }) => ({
      access_token: accessToken,
      expires_in: 86400,
      open_id: identity.profile.data.user?.open_id,
      refresh_expires_in: 31536000,
      refresh_token: refreshToken,
      scope: "user.info.basic",
      token_type: "Bearer",
    }),
    error: () => ({
      error: "invalid_grant",
      error_description: "Authorization code is expired.",
      log_id: "20240101000000ABCDEF",
    }),
  },
  resources: [
    {
      url: "https://open.tiktokapis.com/v2/user/info/",
      response: ({ identity, request }) => {
        expect(request.url.searchParams.get("fields")).toBe("open_id,avatar_url,display_name")
        return identity.profile
      },
    },
  ],
  identities: {
    verified: {
      sub: "ada",
      profile: user("723f24d7-e717-40f8-a2b6-cb8464cd23b4", "Ada TikTok"),
      expect: {
        user: {
          id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4",
          name: "Ada TikTok",
          email: null,
          image: "https://p16-sign.tiktokcdn.example/723f24d7-e717-40f8-a2b6-cb8464cd23b4.jpeg",
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: user("0b0b", "Bob"),
      expect: {
        user: {
          id: "0b0b",
          name: "Bob",
          email: null,
          image: "https://p16-sign.tiktokcdn.example/0b0b.jpeg",
        },
        verifiedEmail: null,
      },
    },
    failing: {
      sub: "failing",
      profile: {
        data: {},
        error: {
          code: "access_token_invalid",
          message: "The access token is invalid.",
          log_id: "x",
        },
      },
      expect: {},
    },
  },
})

test("a user info error code ends the sign-in", async () => {
  const { session, errors } = await suite.signIn("failing")
  expect(session).toBeNull()
  expect(errors.at(-1)?.message).toContain("access_token_invalid")
})

test("the bare factory with AUTH_TIKTOK_ID sends client_key", async () => {
  const config = setEnvDefaults(
    { AUTH_SECRET: SECRET, AUTH_TIKTOK_ID: "env-client-key", AUTH_TIKTOK_SECRET: "s" },
    {
      trustHost: true,
      providers: [(options: any) => TikTok({ ...options, [customFetch]: suite.standIn.fetch })],
    },
  )
  const start = await new AppBrowser(config, ORIGIN).startSignIn("tiktok")
  const location = new URL(start.headers.get("location")!)
  expect(location.searchParams.get("client_key")).toBe("env-client-key")
})

test("refreshing a token: client_key and the secret in the body; rotation; invalid_grant", async () => {
  const standIn = await StandIn.start()
  try {
    const TOKEN = "https://open.tiktokapis.com/v2/oauth/token/"
    standIn.on("POST", TOKEN, async (request) => {
      const form = await readForm(request)
      if (form.get("refresh_token") !== "refresh-1") return json({ error: "invalid_grant" }, 400)
      return json({
        access_token: "access-2",
        refresh_token: "refresh-2",
        expires_in: 86400,
        scope: "user.info.basic",
        token_type: "Bearer",
      })
    })
    const config = {
      secret: SECRET,
      trustHost: true,
      providers: [
        TikTok({
          clientId: "tessera-test-client",
          clientSecret: "tessera-test-secret",
          [customFetch]: standIn.fetch,
        }),
      ],
    }
    const tokens = { access_token: "access-1", refresh_token: "refresh-1", expires_at: 0 }
    const refreshed = await refreshTokenSet(config, { provider: "tiktok", tokens })
    expect(refreshed).toMatchObject({ access_token: "access-2", refresh_token: "refresh-2" })
    const form = await readForm(standIn.requestsTo(TOKEN)[0]!)
    expect(Object.fromEntries(form)).toEqual({
      client_key: "tessera-test-client",
      client_secret: "tessera-test-secret",
      grant_type: "refresh_token",
      refresh_token: "refresh-1",
    })
    await expect(
      refreshTokenSet(config, {
        provider: "tiktok",
        tokens: { ...tokens, refresh_token: "spent" },
      }),
    ).rejects.toMatchObject({ type: "RefreshTokenError", code: "invalid_grant" })
  } finally {
    await standIn.stop()
  }
})
