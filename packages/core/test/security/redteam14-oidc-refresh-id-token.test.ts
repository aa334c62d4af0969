/**
 * An ID Token in a refresh answer (`getAccessToken`) is stored on the account, and becomes the
 * `id_token_hint` of RP-initiated logout, so it must be the same user's: OpenID Connect Core §12.2
 * asks that it have the original's `iss`, `sub` and `aud`, an `iat` of when it was issued, and a
 * valid signature. oauth4webapi checks `iss` against the issuer, `aud`, `exp` and the algorithm,
 * but it cannot know the original `sub`, and checks no signature (TLS vouches for the token
 * endpoint). A misbehaving (or compromised) provider stands in as `FakeIssuer`: its refresh
 * answers carry an ID Token for another `sub`, one signed with a key it does not publish, and one
 * issued an hour ago. Each refresh is refused, the account's stored tokens stay as they were, and
 * a warning (without the token) is logged.
 *
 * Before the fix, all three ID Tokens were stored over the account's own.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "vitest"
import { getAccessToken, type AuthConfig } from "@tessera/core"
import type { AdapterAccount } from "@tessera/core/adapters"
import { OAuthProviderError } from "@tessera/core/errors"
import { Browser, recordingLogger, SECRET } from "../harness/index.js"
import { sqliteBackend, type Backend } from "../harness/backends.js"
import { issuerOn, StandIn, type FakeIssuer } from "../harness/stand-in.js"

type Answer = "same-user" | "another-sub" | "stranger-key" | "issued-long-ago"

let standIn: StandIn
let issuer: FakeIssuer
/** What the provider's next refresh answer carries as its ID Token. */
let answer: Answer = "same-user"
/** Every token the provider sent in a refresh answer. */
const refreshed: string[] = []
const SUB = "ada"
const now = () => Math.floor(Date.now() / 1000)

beforeAll(async () => {
  standIn = await StandIn.start()
  issuer = await issuerOn(standIn, {
    // Access tokens that expire inside the 60 s margin: every getAccessToken refreshes.
    tokenResponse: async (record, issuer) => ({
      access_token: `at-${crypto.randomUUID()}`,
      refresh_token: `rt-${crypto.randomUUID()}`,
      token_type: "Bearer",
      expires_in: 30,
      id_token: await issuer.idToken(issuer.defaultIdTokenClaims(record)),
    }),
    async refreshTokenResponse(_form, issuer) {
      const claims = { iss: issuer.issuer, aud: "client-1", sub: SUB, iat: now(), exp: now() + 300 }
      const idToken =
        answer === "another-sub"
          ? await issuer.idToken({ ...claims, sub: "mallory" })
          : answer === "stranger-key"
            ? await issuer.idToken(claims, { key: issuer.strangerKey })
            : answer === "issued-long-ago"
              ? await issuer.idToken({ ...claims, iat: now() - 3600 })
              : await issuer.idToken(claims)
      const body = {
        access_token: `at-${crypto.randomUUID()}`,
        refresh_token: `rt-${crypto.randomUUID()}`,
        token_type: "Bearer",
        expires_in: 30,
        id_token: idToken,
      }
      refreshed.push(body.access_token, body.refresh_token, idToken.split(".")[1]!)
      return body
    },
  })
})
afterAll(() => standIn?.stop())

let backend: Backend | undefined
afterEach(() => backend?.close())

async function signedIn() {
  backend = await sqliteBackend()
  const log = recordingLogger()
  const warnings: string[] = []
  const lines: string[] = []
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    debug: true,
    adapter: backend.adapter,
    logger: {
      ...log.logger,
      warn: (code) => void warnings.push(code),
      debug: (message, metadata) => void lines.push(`${message} ${JSON.stringify(metadata)}`),
      error: (error) => {
        lines.push(`${error.message} ${JSON.stringify(error.cause ?? null)}`)
        log.logger.error!(error)
      },
    },
    providers: [
      {
        id: "idp",
        name: "IdP",
        type: "oidc",
        issuer: issuer.issuer,
        clientId: "client-1",
        clientSecret: "client-1-secret",
        dangerouslyAllowInsecureHttpRequests: true,
      },
    ],
  }
  const browser = new Browser(config)
  const start = await browser.startSignIn("idp")
  await browser.request(issuer.authorize(start.headers.get("location")!, SUB).href)
  const userId = (await backend.users())[0]!.id
  const account = async (): Promise<AdapterAccount> =>
    (await backend!.adapter.listAccountsByUserId!(userId))[0]!
  expect((await account()).id_token).toEqual(expect.any(String))
  // The configuration's own warnings (an http: issuer, debug) are not what these tests look for.
  warnings.length = 0
  return { config, userId, account, warnings, lines }
}

test("a refresh answer with the same user's ID Token is stored", async () => {
  answer = "same-user"
  const { config, userId, account, warnings } = await signedIn()
  const before = await account()
  const token = await getAccessToken(config, { userId, provider: "idp" })
  const after = await account()
  expect(after.access_token).toBe(token.accessToken)
  expect(after.access_token).not.toBe(before.access_token)
  expect(after.id_token).not.toBe(before.id_token)
  expect(warnings).toEqual([])
})

test.each([["another-sub"], ["stranger-key"], ["issued-long-ago"]] as const)(
  "a refresh answer whose ID Token is %s is refused; the stored tokens stay",
  async (kind) => {
    answer = kind
    const { config, userId, account, warnings, lines } = await signedIn()
    const before = await account()
    const refused = await getAccessToken(config, { userId, provider: "idp" }).catch((e) => e)
    expect(refused).toBeInstanceOf(OAuthProviderError)
    const after = await account()
    expect({
      access_token: after.access_token,
      refresh_token: after.refresh_token,
      id_token: after.id_token,
      expires_at: after.expires_at,
    }).toEqual({
      access_token: before.access_token,
      refresh_token: before.refresh_token,
      id_token: before.id_token,
      expires_at: before.expires_at,
    })
    expect(warnings).toEqual(["refresh-id-token-refused"])
    // Neither the refused answer's tokens nor the stored ones are in any log line or the error.
    const logged = `${lines.join("\n")}\n${refused.message} ${JSON.stringify(refused.cause ?? null)}`
    const secrets = [before.access_token!, before.refresh_token!, before.id_token!.split(".")[1]!]
    for (const secret of [...secrets, ...refreshed]) expect(logged).not.toContain(secret)
  },
)
