/**
 * Red team, round 16: the key an account is stored under. An account is found again by
 * (provider, providerAccountId), so that id must be the provider's stable identifier, exactly:
 * two people must never get the same key. Attacked through `Auth()` on SQLite, PostgreSQL and the
 * memory adapter, with an IdP answering hostile identifiers:
 *
 * - OpenID (Keycloak): the ID Token's `sub` missing, empty, a number, an object, with a NUL byte;
 * - OAuth 2 (Kakao, GitLab): the userinfo `id` missing, past 2^53 (JSON.parse rounds
 *   9007199254740993 to ...992, another user's id), fractional, past -2^53, `1e21`, a string with
 *   a NUL byte; Twitter/X: `data.id` missing or a number.
 *
 * Each must end in an error redirect (`/auth/signin?error=...`), never a 500, never a row, never
 * a session. The control: a well-formed id signs in.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import GitLab from "@tessera/core/providers/gitlab"
import Kakao from "@tessera/core/providers/kakao"
import Keycloak from "@tessera/core/providers/keycloak"
import Twitter from "@tessera/core/providers/twitter"
import { setsSession, StandIn } from "@tessera/testing"
import { PostgresFixture } from "../harness/backends.js"
import { app, clientOptions, ORIGIN, signIn, standUp } from "./redteam16-helpers.js"

let standIn: StandIn
let keycloak: Awaited<ReturnType<typeof standUp>>
let kakao: Awaited<ReturnType<typeof standUp>>
let gitlab: Awaited<ReturnType<typeof standUp>>
let twitter: Awaited<ReturnType<typeof standUp>>
const REALM = "https://keycloak.test/realms/acme"
const postgres = new PostgresFixture()

beforeAll(async () => {
  await postgres.start()
  standIn = await StandIn.start()
  keycloak = await standUp(standIn, {
    issuer: REALM,
    authorize: `${REALM}/protocol/openid-connect/auth`,
    token: `${REALM}/protocol/openid-connect/token`,
    jwks: `${REALM}/protocol/openid-connect/certs`,
  })
  kakao = await standUp(standIn, {
    issuer: "https://kauth.kakao.com",
    authorize: "https://kauth.kakao.com/oauth/authorize",
    token: "https://kauth.kakao.com/oauth/token",
    userinfo: "https://kapi.kakao.com/v2/user/me",
  })
  gitlab = await standUp(standIn, {
    issuer: "https://gitlab.com",
    authorize: "https://gitlab.com/oauth/authorize",
    token: "https://gitlab.com/oauth/token",
    userinfo: "https://gitlab.com/api/v4/user",
  })
  twitter = await standUp(standIn, {
    issuer: "https://x.com",
    authorize: "https://x.com/i/oauth2/authorize",
    token: "https://api.x.com/2/oauth2/token",
    userinfo: "https://api.x.com/2/users/me",
  })
}, 120_000)
afterAll(async () => {
  await standIn?.stop()
  await postgres.stop()
})

const providers = {
  keycloak: () => Keycloak({ ...clientOptions(standIn, true), issuer: REALM }),
  kakao: () => Kakao(clientOptions(standIn, true)),
  gitlab: () => GitLab(clientOptions(standIn, true)),
  twitter: () => Twitter(clientOptions(standIn, true)),
}
const idps = () => ({ keycloak, kakao, gitlab, twitter })

/** Signs in with `id` on both adapters; returns what came back and what was stored. */
async function attempt(id: keyof typeof providers, sub = "user-1") {
  const outcomes = []
  for (const [name, adapter] of [
    ["memory", "memory"],
    ["sqlite", "sqlite"],
    ["postgres", () => postgres.backend()],
  ] as const) {
    const { config, backend } = await app(providers[id](), { adapter, victim: false })
    try {
      const { done } = await signIn(config, id, idps()[id].issuer, { sub })
      outcomes.push({
        adapter: name,
        status: done.status,
        location: done.headers.get("location"),
        session: setsSession(done),
        accounts: await backend.accounts(),
        users: await backend.users(),
      })
    } finally {
      await backend.close()
    }
  }
  return outcomes
}

async function expectRefused(id: keyof typeof providers, sub?: string) {
  for (const outcome of await attempt(id, sub)) {
    expect(outcome.status, outcome.adapter).toBe(302)
    expect(outcome.location, outcome.adapter).toMatch(
      new RegExp(`^${ORIGIN}/auth/(signin|error)\\?error=\\w+$`),
    )
    expect(outcome.session).toBe(false)
    expect(outcome.accounts).toEqual([])
    expect(outcome.users).toEqual([])
  }
}

const EMAIL = { email: "someone@mail.test" }

describe("OpenID (Keycloak): a hostile `sub` in the signed ID Token", () => {
  test.each([
    ["missing", undefined],
    ["empty", ""],
    ["a number", 42],
    ["an object", { id: "victim" }],
    ["with a NUL byte", "victim\u0000attacker"],
    ["with a control character", "victim\u001b[2J"],
  ])("%s: an error redirect, no row", async (_, sub) => {
    keycloak.answer.claims = { sub, ...EMAIL, email_verified: true }
    await expectRefused("keycloak")
  })

  test("the control: a string sub signs in and keys the account", async () => {
    keycloak.answer.claims = { ...EMAIL, email_verified: true }
    for (const outcome of await attempt("keycloak", "f:4c1b:ada")) {
      expect(outcome.session).toBe(true)
      expect(outcome.accounts.map((a) => a.providerAccountId)).toEqual(["f:4c1b:ada"])
    }
  })
})

describe("OAuth 2: a hostile numeric or text `id` in the userinfo", () => {
  const kakaoBody = (id: string) =>
    `{"id":${id},"kakao_account":{"email":"someone@mail.test","is_email_valid":true,"is_email_verified":true}}`

  test.each([
    ["missing", `{"kakao_account":{}}`],
    ["past 2^53 (rounds to another user's id)", kakaoBody("9007199254740993")],
    ["2^53 itself (what 2^53 + 1 parses to)", kakaoBody("9007199254740992")],
    ["fractional", kakaoBody("1234.5")],
    // A negative id is exact (NetSuite's administrator is -5); past -2^53 it rounds too.
    ["past -2^53", kakaoBody("-9007199254740993")],
    ["1e21", kakaoBody("1e21")],
    ["a string with a NUL byte", kakaoBody('"1234\\u0000"')],
    ["null", kakaoBody("null")],
  ])("Kakao: id %s: an error redirect, no row", async (_, text) => {
    kakao.answer.userinfoText = text
    await expectRefused("kakao")
  })

  test("Kakao, the control: a 64-bit id within 2^53 signs in, keyed by its digits", async () => {
    kakao.answer.userinfoText = kakaoBody("4294967297123")
    for (const outcome of await attempt("kakao")) {
      expect(outcome.session).toBe(true)
      expect(outcome.accounts.map((a) => a.providerAccountId)).toEqual(["4294967297123"])
    }
  })

  test.each([
    ["past 2^53", `{"id":9007199254740993,"username":"m","email":"m@mail.test"}`],
    ["fractional", `{"id":7.5,"username":"m","email":"m@mail.test"}`],
    ["a NUL byte in sub", `{"id":7,"sub":"7\\u0000","username":"m"}`],
    ["missing", `{"username":"m","email":"m@mail.test"}`],
  ])("GitLab: id %s: an error redirect, no row", async (_, text) => {
    gitlab.answer.userinfoText = text
    await expectRefused("gitlab")
  })

  test.each([
    ["missing", { data: { name: "M", username: "m" } }],
    ["a number", { data: { id: Number("9007199254740993"), name: "M", username: "m" } }],
    ["with a NUL byte", { data: { id: "1\u00002", name: "M", username: "m" } }],
  ])("Twitter: data.id %s: an error redirect, no row", async (_, body) => {
    twitter.answer.userinfoText = undefined
    twitter.answer.userinfo = body
    await expectRefused("twitter")
  })
})
