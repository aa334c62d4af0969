/**
 * VK against a loopback stand-in answering as oauth.vk.com and api.vk.com
 * (reached through customFetch) with VK's documented response shapes: the
 * conformance suite, then VK's own option names and API versions.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import {
  customFetch,
  setEnvDefaults,
  type Adapter,
  type AdapterAccount,
  type AuthConfig,
} from "@tessera/core"
import VK, { VK_API_VERSION, type VkProfile } from "@tessera/core/providers/vk"
import { AppBrowser, FakeIssuer, json, MemoryAdapter, setsSession, StandIn } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import { configFor, SECRET } from "./helpers.js"

const ORIGIN = "http://localhost:3000"
let standIn: StandIn
let vk: FakeIssuer
let usersGet: (userId: number) => Response

const ada: VkProfile = {
  id: 1234,
  first_name: "Ada",
  last_name: "Lovelace",
  can_access_closed: true,
  is_closed: false,
  photo_100: "https://sun.userapi.example/ada_100.jpg",
  sex: 1,
  city: { id: 2, title: "London" },
  last_seen: { platform: 7, time: 1_700_000_000 },
  first_name_gen: "Ады",
}

const bob: VkProfile = {
  id: 5678,
  first_name: "Bob",
  last_name: "",
  can_access_closed: true,
  is_closed: false,
  photo_100: "https://sun.userapi.example/bob_100.jpg",
}

runProviderTests<{ sub: string; user: VkProfile; email?: string; expect: any }>({
  provider: VK,
  authorization: {
    url: "https://oauth.vk.com/authorize",
    scope: "email",
    checks: ["state"],
    params: { v: VK_API_VERSION },
  },
  token: {
    url: "https://oauth.vk.com/access_token",
    clientAuth: "client_secret_post",
    // No token_type; the user's id and (with the email scope) e-mail ride along.
    response: ({ accessToken, identity }) => ({
      access_token: accessToken,
      expires_in: 86400,
      user_id: identity.user.id,
      ...(identity.email ? { email: identity.email } : {}),
    }),
    error: () =>
      json({ error: "invalid_grant", error_description: "Code is invalid or expired." }, 401),
  },
  resources: [
    {
      method: "POST",
      url: "https://api.vk.com/method/users.get",
      response: ({ identity }) => ({ response: [identity.user] }),
    },
  ],
  identities: {
    // VK vouches for no address: the "verified" identity has one, but no flag.
    verified: {
      sub: "ada",
      user: ada,
      email: "ada@vk.example",
      expect: {
        user: { id: "1234", name: "Ada Lovelace", email: "ada@vk.example", image: ada.photo_100 },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      user: bob,
      expect: {
        user: { id: "5678", name: "Bob", email: null, image: bob.photo_100 },
        verifiedEmail: null,
      },
    },
  },
})

beforeAll(async () => {
  standIn = await StandIn.start()
  usersGet = () => json({ response: [ada] })
  vk = await FakeIssuer.create({
    standIn,
    issuer: "https://oauth.vk.com",
    authorizationEndpoint: "https://oauth.vk.com/authorize",
    tokenEndpoint: "https://oauth.vk.com/access_token",
    userinfoEndpoint: "https://api.vk.com/method/users.get",
    discovery: false,
    clientId: "51234567",
    clientSecret: "vk-app-secret",
    authMethod: "client_secret_post",
    // VK's token response: no token_type; the user's id and e-mail ride along.
    tokenResponse: (record) => ({
      access_token: `vk1.a.${crypto.randomUUID()}`,
      expires_in: 86400,
      user_id: 1234,
      email: `${record.sub}@vk.example`,
    }),
    userinfo: () => usersGet(1234),
  })
})
afterAll(() => standIn?.stop())

function config(provider: ReturnType<typeof VK>, extra: Partial<AuthConfig> = {}) {
  const { config, seen, errors } = configFor(provider, extra)
  return { cfg: config, seen, errors }
}

async function signIn(cfg: AuthConfig) {
  const browser = new AppBrowser(cfg)
  const start = await browser.startSignIn("vk")
  const location = new URL(start.headers.get("location")!)
  const done = await browser.request(vk.authorize(location, "ada").href)
  return { browser, location, done }
}

describe("VK", () => {
  test("defaults: API 5.126 on every endpoint, state, client_secret_post, e-mail from the token response", async () => {
    const { cfg, seen } = config(
      VK({ clientId: "51234567", clientSecret: "vk-app-secret", [customFetch]: standIn.fetch }),
    )
    const { browser, location, done } = await signIn(cfg)

    expect(VK_API_VERSION).toBe("5.126")
    expect(location.origin + location.pathname).toBe("https://oauth.vk.com/authorize")
    const q = location.searchParams
    expect(q.get("v")).toBe("5.126")
    expect(q.get("response_type")).toBe("code")
    expect(q.get("scope")).toBe("email")
    expect(q.get("client_id")).toBe("51234567")
    expect(q.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/vk`)
    expect(q.get("state")).toBeTruthy()
    expect(q.has("code_challenge")).toBe(false)

    expect(done.status).toBe(302)
    expect(setsSession(done)).toBe(true)
    expect((await browser.session()).user).toEqual({
      name: "Ada Lovelace",
      email: "ada@vk.example",
      image: ada.photo_100,
    })
    expect(seen.account).toMatchObject({
      provider: "vk",
      type: "oauth",
      providerAccountId: "1234",
      token_type: "bearer",
    })
    expect(typeof seen.account.providerAccountId).toBe("string")
    expect(seen.account.expires_at).toBeGreaterThan(Date.now() / 1000 + 86000)
    // The callbacks get the whole token response, as in Auth.js: VK's user_id and e-mail too.
    expect(seen.account).toMatchObject({ user_id: 1234, email: "ada@vk.example" })

    const token = standIn.requestsTo("https://oauth.vk.com/access_token").at(-1)!
    expect(token.url.searchParams.get("v")).toBe("5.126")
    const form = new URLSearchParams(token.body)
    expect(form.get("client_id")).toBe("51234567")
    expect(form.get("client_secret")).toBe("vk-app-secret")
    expect(token.headers.has("authorization")).toBe(false)

    const profile = standIn.requestsTo("https://api.vk.com/method/users.get").at(-1)!
    expect(profile.url.searchParams.get("fields")).toBe("photo_100")
    expect(profile.url.searchParams.get("v")).toBe("5.126")
    // The token travels in the body, never in the URL.
    expect(profile.url.searchParams.has("access_token")).toBe(false)
    expect(new URLSearchParams(profile.body).get("access_token")).toMatch(/^vk1\.a\./)
  })

  test("the Account stores the token fields only: email and user_id are not Account fields", async () => {
    // What the adapter is given (the memory adapter would drop unknown fields by itself).
    const memory = MemoryAdapter()
    const given: AdapterAccount[] = []
    const adapter: Adapter = {
      ...memory,
      async createUserAndAccount(user, account) {
        given.push(account)
        return memory.createUserAndAccount!(user, account)
      },
    }
    const { cfg } = config(
      VK({ clientId: "51234567", clientSecret: "vk-app-secret", [customFetch]: standIn.fetch }),
      { adapter, session: { strategy: "jwt" } },
    )
    const { done } = await signIn(cfg)
    expect(setsSession(done)).toBe(true)
    expect(given).toHaveLength(1)
    const [account] = given
    expect(account).toMatchObject({ provider: "vk", providerAccountId: "1234" })
    expect(account).not.toHaveProperty("email")
    expect(account).not.toHaveProperty("user_id")
    expect(account).not.toHaveProperty("expires_in")
  })

  test("another API version through VK's option names", async () => {
    const v = "5.199"
    const { cfg } = config(
      VK({
        clientId: "51234567",
        clientSecret: "vk-app-secret",
        [customFetch]: standIn.fetch,
        authorizationUrl: `https://oauth.vk.com/authorize?response_type=code&v=${v}`,
        requestTokenUrl: `https://oauth.vk.com/access_token?v=${v}`,
        profileUrl: `https://api.vk.com/method/users.get?fields=photo_100,screen_name&v=${v}`,
      }),
    )
    const { location, done } = await signIn(cfg)
    expect(location.searchParams.get("v")).toBe(v)
    expect(location.searchParams.get("scope")).toBe("email")
    expect(setsSession(done)).toBe(true)
    expect(
      standIn.requestsTo("https://oauth.vk.com/access_token").at(-1)!.url.searchParams.get("v"),
    ).toBe(v)
    const profile = standIn.requestsTo("https://api.vk.com/method/users.get").at(-1)!
    expect(profile.url.searchParams.get("v")).toBe(v)
    expect(profile.url.searchParams.get("fields")).toBe("photo_100,screen_name")
  })

  test("accessTokenUrl wins over requestTokenUrl; standard options keep VK's handling", async () => {
    const { cfg } = config(
      VK({
        clientId: "51234567",
        clientSecret: "vk-app-secret",
        [customFetch]: standIn.fetch,
        accessTokenUrl: "https://oauth.vk.com/access_token?v=5.131",
        requestTokenUrl: "https://oauth.vk.com/access_token?v=1.0",
        userinfo: "https://api.vk.com/method/users.get?fields=photo_100&v=5.131",
      }),
    )
    const { browser, done } = await signIn(cfg)
    // Still no token_type from VK, still { response: [...] }: both handled.
    expect(setsSession(done)).toBe(true)
    expect((await browser.session()).user.name).toBe("Ada Lovelace")
    expect(
      standIn.requestsTo("https://oauth.vk.com/access_token").at(-1)!.url.searchParams.get("v"),
    ).toBe("5.131")
  })

  test("a users.get error (status 200, { error }) ends the sign-in without a session", async () => {
    usersGet = () =>
      json({
        error: { error_code: 5, error_msg: "User authorization failed: invalid access_token (4)." },
      })
    try {
      const { cfg, errors } = config(
        VK({ clientId: "51234567", clientSecret: "vk-app-secret", [customFetch]: standIn.fetch }),
      )
      const { done } = await signIn(cfg)
      expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`)
      expect(setsSession(done)).toBe(false)
      expect(errors.at(-1)?.message).toContain("users.get error 5")
    } finally {
      usersGet = () => json({ response: [ada] })
    }
  })

  test("AUTH_VK_ID and AUTH_VK_SECRET configure `providers: [VK]`", async () => {
    const cfg = setEnvDefaults(
      { AUTH_SECRET: SECRET, AUTH_VK_ID: "51234567", AUTH_VK_SECRET: "vk-app-secret" },
      {
        trustHost: true,
        logger: { error: () => {}, warn: () => {}, debug: () => {} },
        providers: [(options: any) => VK({ ...options, [customFetch]: standIn.fetch })],
      },
    )
    const { browser, location, done } = await signIn(cfg)
    expect(location.searchParams.get("client_id")).toBe("51234567")
    expect(setsSession(done)).toBe(true)
    expect((await browser.session()).user.email).toBe("ada@vk.example")
  })

  test("the bare factory works as a provider entry", async () => {
    const cfg = setEnvDefaults(
      { AUTH_SECRET: SECRET, AUTH_VK_ID: "51234567", AUTH_VK_SECRET: "s" },
      { trustHost: true, providers: [VK] },
    )
    const providers = await (await new AppBrowser(cfg).request("/auth/providers")).json()
    expect(providers.vk).toEqual({
      id: "vk",
      name: "VK",
      type: "oauth",
      signinUrl: `${ORIGIN}/auth/signin/vk`,
      callbackUrl: `${ORIGIN}/auth/callback/vk`,
    })
  })
})
