/**
 * Red team 10: the session and token management surface as an attacker reaches
 * it through `Auth()`: the sessions list and revoke routes, sign-out scopes,
 * RP-initiated logout and back-channel logout, against a real oidc-provider.
 *
 * Found: a back-channel logout token signed with HS256 under the client secret
 * was accepted although the client never registered a MAC algorithm for its
 * ID Tokens: the accepted algorithms came from the provider's discovery list,
 * which for oidc-provider (and many others) names HS256. Whoever learns the
 * client secret (it travels with every token request, lives in the app's
 * environment, is often shared between staging and production) could then
 * forge logout tokens and end any user's sessions. OpenID Connect Core
 * §3.1.3.7 says the algorithm is RS256 or the one the client registered:
 * HS* is accepted only when the app names it (`client.id_token_signed_response_alg`).
 *
 * The rest are probes that found nothing, kept as regression tests.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { listSessions } from "@tessera/core/sessions"
import type { LoggerInstance } from "@tessera/core/types"
import {
  completeOidcLogin,
  localOidcProvider,
  MemoryAdapter,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { decodeJwt, SignJWT } from "jose"
import { Browser, ORIGIN, post, SECRET } from "../harness/index.js"

const EVENT = "http://schemas.openid.net/event/backchannel-logout"
let idp: OidcProviderServer
/**
 * The provider's discovery document as Keycloak and Auth0 publish theirs: HS256
 * among `id_token_signing_alg_values_supported` (for clients that register it).
 * The local oidc-provider lists only the algorithms of its keys.
 */
let keycloakLike: Server
let keycloakLikeWellKnown: string

beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/local`],
    backchannelLogoutUri: `${ORIGIN}/auth/backchannel-logout/local`,
  })
  keycloakLike = createServer((_req, res) => {
    void fetch(`${idp.issuer}/.well-known/openid-configuration`)
      .then((r) => r.json() as Promise<Record<string, unknown>>)
      .then((metadata) => {
        metadata.id_token_signing_alg_values_supported = ["HS256", "RS256", "PS256"]
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(metadata))
      })
  })
  await new Promise<void>((resolve) => keycloakLike.listen(0, "127.0.0.1", resolve))
  const { port } = keycloakLike.address() as AddressInfo
  keycloakLikeWellKnown = `http://127.0.0.1:${port}/.well-known/openid-configuration`
})
afterAll(async () => {
  keycloakLike?.closeAllConnections()
  keycloakLike?.close()
  await idp?.stop()
})

/** Everything logged, at every level, with metadata and causes, as one string per line. */
function fullLogger() {
  const lines: string[] = []
  const dump = (value: unknown): string => {
    const seen = new WeakSet()
    return JSON.stringify(value, (_key, v: unknown) => {
      if (v instanceof Error) {
        return { name: v.name, message: v.message, stack: v.stack, cause: v.cause, ...v }
      }
      if (typeof v === "object" && v !== null) {
        if (seen.has(v)) return "[circular]"
        seen.add(v)
      }
      return v
    })
  }
  const logger: LoggerInstance = {
    error: (error) => void lines.push(`error ${dump(error)}`),
    warn: (code) => void lines.push(`warn ${code}`),
    debug: (message, metadata) => void lines.push(`debug ${message} ${dump(metadata)}`),
  }
  return { logger, lines }
}

let config: AuthConfig
let adapter: ReturnType<typeof MemoryAdapter>
let log: ReturnType<typeof fullLogger>

function makeConfig(strategy: "jwt" | "database", provider: Record<string, unknown> = {}) {
  log = fullLogger()
  adapter = MemoryAdapter()
  config = {
    secret: SECRET,
    trustHost: true,
    adapter,
    debug: true,
    logger: log.logger,
    session: { strategy },
    providers: [{ ...localOidcProvider(idp, "local"), ...provider }],
  }
  return config
}

/** Signs `accountId` in at the provider through a fresh browser. */
async function signIn(accountId: string) {
  const browser = new Browser(config)
  const start = await browser.startSignIn("local")
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId })
  const done = await browser.request(back.url.pathname + back.url.search)
  expect(done.status).toBe(302)
  expect(await browser.session()).not.toBeNull()
  const user = await adapter.getUserByAccount!({ provider: "local", providerAccountId: accountId })
  const account = [...adapter.store.accounts.values()].find(
    (a) => a.providerAccountId === accountId,
  )!
  return { browser, userId: user!.id, idToken: account.id_token! }
}

const now = () => Math.floor(Date.now() / 1000)

async function deliver(token: string, cfg: AuthConfig = config) {
  const response = await Auth(post("/auth/backchannel-logout/local", { logout_token: token }), cfg)
  return response.status
}

describe("back-channel logout: the algorithm is the client's, not any the provider lists", () => {
  let ada: Awaited<ReturnType<typeof signIn>>
  beforeEach(async () => {
    makeConfig("jwt", { wellKnown: keycloakLikeWellKnown })
    ada = await signIn("ada")
  })

  /** A well-formed logout token for Ada's provider session, signed HS256 with `key`. */
  function hs256(key: string) {
    return new SignJWT({
      jti: crypto.randomUUID(),
      sub: "ada",
      sid: decodeJwt(ada.idToken).sid as string,
      events: { [EVENT]: {} },
    })
      .setProtectedHeader({ alg: "HS256", typ: "logout+jwt" })
      .setIssuer(idp.issuer)
      .setAudience(idp.clientId)
      .setIssuedAt(now())
      .setExpirationTime(now() + 120)
      .sign(new TextEncoder().encode(key))
  }

  test("HS256 under the client secret, the client registered no MAC algorithm: refused, the session stays", async () => {
    expect(await deliver(await hs256(idp.clientSecret))).toBe(400)
    expect(await listSessions(config, ada.userId)).toHaveLength(1)
    expect(await ada.browser.session()).not.toBeNull()
  })

  test("an app that registered HS256 for its ID Tokens gets HS256 logout tokens accepted", async () => {
    // Same adapter and users, one more setting: the client's registered algorithm.
    const hsConfig: AuthConfig = {
      ...config,
      providers: [
        {
          ...localOidcProvider(idp, "local"),
          wellKnown: keycloakLikeWellKnown,
          client: { id_token_signed_response_alg: "HS256" },
        },
      ],
    }
    expect(await deliver(await hs256("not the client secret"), hsConfig)).toBe(400)
    expect(await listSessions(config, ada.userId)).toHaveLength(1)
    // An RS256 token is then not the client's algorithm either.
    expect(await deliver(idp.logoutToken({ sub: "ada" }), hsConfig)).toBe(400)
    expect(await listSessions(config, ada.userId)).toHaveLength(1)
    expect(await deliver(await hs256(idp.clientSecret), hsConfig)).toBe(200)
    expect(await listSessions(config, ada.userId)).toEqual([])
  })

  test("the provider's own RS256 logout token still works", async () => {
    expect(await deliver(idp.logoutToken({ sub: "ada" }))).toBe(200)
    expect(await listSessions(config, ada.userId)).toEqual([])
  })
})
