/**
 * Back-channel logout as an attacker sees it: `POST /auth/backchannel-logout/<provider>`
 * needs no cookie and no CSRF token, so anyone can post to it. Only a logout token
 * the provider signed for this client, fresh, used once, with the logout event and
 * no nonce, with an `exp` (REQUIRED since the final spec), may end sessions. Forged, replayed, wrong-audience, expired and
 * ID-Token-shaped tokens are refused with 400 `invalid_request`, and the session
 * they aim at stays.
 */
import { generateKeyPairSync, sign } from "node:crypto"
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { listSessions } from "@tessera/core/sessions"
import {
  completeOidcLogin,
  localOidcProvider,
  MemoryAdapter,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { decodeJwt } from "jose"
import { Browser, ORIGIN, post, recordingLogger, SECRET } from "../harness/index.js"

const EVENT = "http://schemas.openid.net/event/backchannel-logout"
let idp: OidcProviderServer

beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/local`],
    // ID Tokens carry the provider's `sid` (the app is not reachable from it here).
    backchannelLogoutUri: `${ORIGIN}/auth/backchannel-logout/local`,
  })
})
afterAll(() => idp?.stop())

let config: AuthConfig
let log: ReturnType<typeof recordingLogger>
let userId: string
let sid: string

beforeEach(async () => {
  log = recordingLogger()
  config = {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(),
    debug: true,
    logger: log.logger,
    providers: [
      localOidcProvider(idp, "local"),
      {
        id: "plain",
        name: "Plain",
        type: "oauth",
        authorization: "https://p.example/a",
        token: "https://p.example/t",
        userinfo: "https://p.example/u",
      },
    ],
  }
  const browser = new Browser(config)
  const start = await browser.startSignIn("local")
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId: "ada" })
  await browser.request(back.url.pathname + back.url.search)
  const store = (config.adapter as ReturnType<typeof MemoryAdapter>).store
  userId = [...store.users.values()][0]!.id
  const idToken = [...store.accounts.values()][0]!.id_token!
  sid = decodeJwt(idToken).sid as string
  expect(sid).toEqual(expect.any(String))
  expect(await listSessions(config, userId)).toHaveLength(1)
})

const now = () => Math.floor(Date.now() / 1000)

/** The claims of a good logout token for the signed-in session. */
function claims(overrides: Record<string, unknown> = {}) {
  return {
    iss: idp.issuer,
    aud: idp.clientId,
    iat: now(),
    exp: now() + 120,
    jti: crypto.randomUUID(),
    sub: "ada",
    sid,
    events: { [EVENT]: {} },
    ...overrides,
  }
}

async function deliver(token: string, path = "/auth/backchannel-logout/local") {
  const response = await Auth(post(path, { logout_token: token }), config)
  return {
    status: response.status,
    cacheControl: response.headers.get("cache-control"),
    body: response.status === 200 ? null : ((await response.json()) as Record<string, unknown>),
  }
}

async function stillSignedIn() {
  return (await listSessions(config, userId)).length === 1
}

function withoutKey(object: Record<string, unknown>, key: string) {
  const { [key]: _dropped, ...rest } = object
  return rest
}

test("a good logout token ends the session: 200, no-store; the same token again is refused", async () => {
  const token = idp.sign(claims(), { typ: "logout+jwt" })
  expect(await deliver(token)).toEqual({ status: 200, cacheControl: "no-store", body: null })
  expect(await stillSignedIn()).toBe(false)
  expect(await deliver(token)).toEqual({
    status: 400,
    cacheControl: "no-store",
    body: { error: "invalid_request", error_description: "The logout token was used before" },
  })
})

test("sub alone ends every session of that provider account", async () => {
  const token = idp.sign(withoutKey(claims(), "sid"))
  expect((await deliver(token)).status).toBe(200)
  expect(await stillSignedIn()).toBe(false)
})

describe("refused, and the session stays", () => {
  const forgedKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
  const kidOf = () =>
    JSON.parse(Buffer.from(idp.sign({}).split(".")[0]!, "base64url").toString()).kid

  const cases: [string, () => string][] = [
    [
      "forged: signed with another key under the provider's kid",
      () => {
        const input = `${b64({ alg: "RS256", kid: kidOf() })}.${b64(claims())}`
        return `${input}.${sign("sha256", Buffer.from(input), forgedKey).toString("base64url")}`
      },
    ],
    ["unsigned (alg none)", () => `${b64({ alg: "none" })}.${b64(claims())}.`],
    [
      "HS256 keyed with the provider's public key (algorithm confusion)",
      () => `${b64({ alg: "HS256" })}.${b64(claims())}.c2lnbmF0dXJl`,
    ],
    ["for another client (aud)", () => idp.sign(claims({ aud: "another-client" }))],
    ["from another issuer", () => idp.sign(claims({ iss: "https://evil.example" }))],
    ["expired", () => idp.sign(claims({ iat: now() - 300, exp: now() - 60 }))],
    // Still within its `exp`: `iat` bounds the token's age whatever `exp` says.
    ["issued too long ago", () => idp.sign(claims({ iat: now() - 3600, exp: now() + 120 }))],
    // Back-Channel Logout 1.0 (final) §2.4: `exp` is REQUIRED.
    ["without exp", () => idp.sign(withoutKey(claims(), "exp"))],
    ["issued in the future", () => idp.sign(claims({ iat: now() + 3600, exp: now() + 7200 }))],
    ["without the logout event", () => idp.sign(claims({ events: { other: {} } }))],
    ["with events not an object", () => idp.sign(claims({ events: [EVENT] }))],
    ["with a nonce (an ID Token)", () => idp.sign(claims({ nonce: "n-0S6_WzA2Mj" }))],
    ["with neither sub nor sid", () => idp.sign(withoutKey(withoutKey(claims(), "sub"), "sid"))],
    ["without jti", () => idp.sign(withoutKey(claims(), "jti"))],
    ["without iat", () => idp.sign(withoutKey(claims(), "iat"))],
    ["not a JWT", () => "not-a-jwt"],
  ]

  test("without exp: the answer says so", async () => {
    expect(await deliver(idp.sign(withoutKey(claims(), "exp")))).toEqual({
      status: 400,
      cacheControl: "no-store",
      body: { error: "invalid_request", error_description: "The logout token has no exp" },
    })
    expect(await stillSignedIn()).toBe(true)
  })

  test.each(cases)("%s", async (_name, make) => {
    const result = await deliver(make())
    expect(result.status).toBe(400)
    expect(result.cacheControl).toBe("no-store")
    expect(result.body).toMatchObject({ error: "invalid_request" })
    expect(await stillSignedIn()).toBe(true)
    // A client's refusal: debug level, not the error log.
    expect(log.errors).toEqual([])
  })

  test("a real ID Token of the user posted as a logout token", async () => {
    const store = (config.adapter as ReturnType<typeof MemoryAdapter>).store
    const idToken = [...store.accounts.values()][0]!.id_token!
    expect((await deliver(idToken)).status).toBe(400)
    expect(await stillSignedIn()).toBe(true)
  })

  test("a token for the session, posted to another provider's endpoint or none", async () => {
    const token = idp.sign(claims())
    expect((await deliver(token, "/auth/backchannel-logout/plain")).status).toBe(400)
    // Every answer of the endpoint is no-store, the refusal of an unknown provider too.
    expect(await deliver(token, "/auth/backchannel-logout/nobody")).toMatchObject({
      status: 404,
      cacheControl: "no-store",
    })
    expect((await Auth(post("/auth/backchannel-logout/local", {}), config)).status).toBe(400)
    expect(await stillSignedIn()).toBe(true)
  })
})
