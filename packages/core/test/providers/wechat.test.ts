/**
 * WeChat (OAuth 2.0): `appid` and `#wechat_redirect`, the AppSecret as `secret`,
 * text/plain answers without token_type, `{ errcode }` errors with status 200,
 * the token and openid in the userinfo query, unionid (else openid) as the id,
 * and WeChat's own refresh.
 */
import { beforeAll, expect, test } from "vitest"
import { json, StandIn } from "@tessera/testing"
import { PROVIDER_TEST_ORIGIN, runProviderTests } from "@tessera/testing/suites"
import WeChat from "@tessera/core/providers/wechat"
import { customFetch, refreshTokenSet } from "@tessera/core"
import { SECRET, signInFromEnv, type ProfileIdentity } from "./helpers.js"

/** WeChat answers JSON with `content-type: text/plain`. */
const plain = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "text/plain" } })

const TOKEN = "https://api.weixin.qq.com/sns/oauth2/access_token"

const user = (openid: string, unionid: string | undefined, nickname: string) => ({
  openid,
  ...(unionid ? { unionid } : {}),
  nickname,
  sex: 0,
  province: "Guangdong",
  city: "Shenzhen",
  country: "CN",
  headimgurl: `https://thirdwx.qlogo.example/mmopen/${openid}/132`,
  privilege: [],
})

const suite = runProviderTests<ProfileIdentity>({
  provider: WeChat,
  authorization: {
    url: "https://open.weixin.qq.com/connect/oauth2/authorize",
    scope: "snsapi_userinfo",
    checks: ["state"],
    params: { appid: "tessera-test-client" },
  },
  token: {
    url: TOKEN,
    clientAuth: (request, form) =>
      form.get("appid") === "tessera-test-client" &&
      form.get("secret") === "tessera-test-secret" &&
      !form.has("client_secret") &&
      !request.headers.has("authorization"),
    response: ({ accessToken, refreshToken, identity }) =>
      plain({
        access_token: accessToken,
        expires_in: 7200,
        refresh_token: refreshToken,
        openid: identity.profile.openid,
        scope: "snsapi_userinfo",
        ...(identity.profile.unionid ? { unionid: identity.profile.unionid } : {}),
      }),
    // WeChat refuses a code with status 200.
    error: () => plain({ errcode: 40029, errmsg: "invalid code, rid: 6630c0f1-1f2e3d4c-5b6a7988" }),
  },
  resources: [
    {
      url: "https://api.weixin.qq.com/sns/userinfo",
      response: ({ identity, request }) => {
        expect(request.url.searchParams.get("openid")).toBe(identity.profile.openid)
        expect(request.url.searchParams.get("lang")).toBe("zh_CN")
        if (identity.sub === "expired")
          return plain({ errcode: 42001, errmsg: "access_token expired, rid: 6630c0f1" })
        return plain(identity.profile)
      },
    },
  ],
  account: { scope: "snsapi_userinfo" },
  identities: {
    verified: {
      sub: "ada",
      profile: user("oAda0openid0000000000000001", "oUnionAda000000000000000001", "阿达"),
      expect: {
        user: {
          id: "oUnionAda000000000000000001",
          name: "阿达",
          email: null,
          image: "https://thirdwx.qlogo.example/mmopen/oAda0openid0000000000000001/132",
        },
        // WeChat shares no address.
        verifiedEmail: null,
      },
    },
    unverified: {
      // An Official Account bound to no Open Platform account: no unionid.
      sub: "bob",
      profile: user("oBob0openid0000000000000002", undefined, "Bob"),
      expect: {
        user: {
          id: "oBob0openid0000000000000002",
          name: "Bob",
          email: null,
          image: "https://thirdwx.qlogo.example/mmopen/oBob0openid0000000000000002/132",
        },
        verifiedEmail: null,
      },
    },
    expired: {
      sub: "expired",
      profile: user("oExp0openid0000000000000003", undefined, "Expired"),
      expect: {},
    },
  },
})

/**
 * WeChat's code exchange is a GET with its parameters in the query, and sends no
 * `redirect_uri`; the suite's stand-in token endpoint takes a POSTed form. The GET
 * is handed over to it as one (with the callback URL every run uses).
 */
beforeAll(() => {
  for (const url of [TOKEN, TOKEN.replace(/^https:/, "http:")]) {
    suite.standIn.on("GET", url, (request) => {
      if (request.headers.has("authorization") || request.body)
        return json({ errcode: 40013, errmsg: "invalid appid" })
      const form = new URLSearchParams(request.url.search)
      form.set("redirect_uri", `${PROVIDER_TEST_ORIGIN}/auth/callback/wechat`)
      return suite.standIn.fetch(`${request.url.origin}${request.url.pathname}`, {
        method: "POST",
        body: form,
      })
    })
  }
})

test("the authorization URL ends with #wechat_redirect; a Website App scans a QR code", async () => {
  const { location } = await suite.signIn("ada")
  expect(location.hash).toBe("#wechat_redirect")
  const website = WeChat({ clientId: "wx123", platformType: "WebsiteApp" })
  expect(website.authorization).toMatchObject({
    url: "https://open.weixin.qq.com/connect/qrconnect#wechat_redirect",
    params: { appid: "wx123", scope: "snsapi_login" },
  })
})

test("with AUTH_WECHAT_ID from the environment, the AppID is the URL's appid too", async () => {
  const env = { AUTH_WECHAT_ID: suite.clientId, AUTH_WECHAT_SECRET: suite.clientSecret }
  const { start, session } = await signInFromEnv(suite, WeChat, env, "ada")
  expect(new URL(start.headers.get("location")!).searchParams.get("appid")).toBe(suite.clientId)
  expect(session?.user.name).toBe("阿达")
})

test("the code is exchanged by a GET with appid, secret, code and grant_type, as documented", async () => {
  const { seen } = await suite.signIn("ada")
  const exchange = suite.standIn
    .requestsTo(TOKEN)
    .filter((request) => request.method === "GET")
    .at(-1)!
  expect([...exchange.url.searchParams.keys()].sort()).toEqual([
    "appid",
    "code",
    "grant_type",
    "secret",
  ])
  expect(exchange.url.searchParams.get("grant_type")).toBe("authorization_code")
  expect(seen.account.token_type).toBe("bearer")
  const userinfo = suite.standIn.requestsTo("https://api.weixin.qq.com/sns/userinfo").at(-1)!
  expect(userinfo.url.searchParams.has("secret")).toBe(false)
})

test("a userinfo error (errcode with status 200) signs nobody in", async () => {
  const { session, errors } = await suite.signIn("expired")
  expect(session).toBeNull()
  expect(errors.at(-1)?.message).toMatch(/sns\/userinfo answered 200, errcode 42001/)
})

test("refreshing a token: a GET with appid, the grant and the refresh token; 40030 is a refused refresh token", async () => {
  const standIn = await StandIn.start()
  try {
    const REFRESH = "https://api.weixin.qq.com/sns/oauth2/refresh_token"
    standIn.on("GET", REFRESH, (request) => {
      if (request.url.searchParams.get("refresh_token") !== "refresh-1")
        return plain({ errcode: 40030, errmsg: "invalid refresh_token" })
      return plain({
        access_token: "access-2",
        expires_in: 7200,
        refresh_token: "refresh-1",
        openid: "oAda0openid0000000000000001",
        scope: "snsapi_userinfo",
      })
    })
    const config = {
      secret: SECRET,
      trustHost: true,
      providers: [
        WeChat({
          clientId: "tessera-test-client",
          clientSecret: "tessera-test-secret",
          [customFetch]: standIn.fetch,
        }),
      ],
    }
    const tokens = { access_token: "access-1", refresh_token: "refresh-1", expires_at: 0 }
    const refreshed = await refreshTokenSet(config, { provider: "wechat", tokens })
    expect(refreshed).toMatchObject({ access_token: "access-2", refresh_token: "refresh-1" })
    const { searchParams } = standIn.requestsTo(REFRESH)[0]!.url
    expect(Object.fromEntries(searchParams)).toEqual({
      appid: "tessera-test-client",
      grant_type: "refresh_token",
      refresh_token: "refresh-1",
    })
    await expect(
      refreshTokenSet(config, {
        provider: "wechat",
        tokens: { ...tokens, refresh_token: "spent" },
      }),
    ).rejects.toMatchObject({ type: "RefreshTokenError" })
  } finally {
    await standIn.stop()
  }
})
