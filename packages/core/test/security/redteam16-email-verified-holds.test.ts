/**
 * Red team, round 16 (holds): "an unverified e-mail never identifies an account", attacked
 * through `Auth()` on SQLite with `allowDangerousEmailAccountLinking` (the setting that would
 * link by address) for the providers not attacked this way before. The attacker controls an
 * account at the provider and puts the victim's address where the profile reads it, with the
 * provider's "verified" flag in every form but the one the provider documents:
 *
 * - Cognito: `email_verified` `true` or `"true"` (Cognito sends the string for some attributes);
 *   `"false"`, `1`, `"yes"`, `"TRUE"`, `" true"`, missing are nothing;
 * - Auth0, Keycloak, Okta, Google: only the boolean `true` (Google also with `hd`); the string
 *   `"true"` is nothing;
 * - Kakao: `is_email_verified` and `is_email_valid` both the boolean `true`;
 * - GitLab: `confirmed_at` a timestamp; `null`, `""`, `true`, `1`, `"yes"` are nothing (this one
 *   was loose: any truthy value vouched for `email`; see redteam16 in CHANGELOG);
 * - Twitter/X: only `confirmed_email`; the legacy `email` is never vouched for.
 *
 * The outcome checked: no account of the victim's, no session in the victim's name, and no
 * user stored with the victim's address as verified. The documented form links (the control).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import type { Provider } from "@tessera/core/providers"
import Auth0 from "@tessera/core/providers/auth0"
import Cognito from "@tessera/core/providers/cognito"
import GitLab from "@tessera/core/providers/gitlab"
import Google from "@tessera/core/providers/google"
import Kakao from "@tessera/core/providers/kakao"
import Keycloak from "@tessera/core/providers/keycloak"
import Okta from "@tessera/core/providers/okta"
import Twitter from "@tessera/core/providers/twitter"
import { StandIn } from "@tessera/testing"
import {
  app,
  clientOptions,
  expectNotTheVictims,
  signIn,
  standUp,
  VICTIM,
  type Answer,
  type IdpShape,
} from "./redteam16-helpers.js"

let standIn: StandIn

/** An OpenID provider at `issuer` (discovery, JWKS, token and authorization endpoints under it). */
const oidcShape = (issuer: string): IdpShape => ({
  issuer,
  authorize: `${issuer}/authorize`,
  token: `${issuer}/token`,
  jwks: `${issuer}/jwks`,
})

interface Case {
  id: string
  shape: IdpShape
  make: (linking: boolean) => Provider
  /** Sets the attacker's answer: the victim's address with `flag` as the verification. */
  answer: (answer: Answer, flag: unknown) => void
  refused: unknown[]
  vouched: unknown[]
}

const oidcClaims = (answer: Answer, flag: unknown) => {
  answer.claims = { email: VICTIM, email_verified: flag, name: "Mallory" }
}
const MISSING = Symbol("missing")
const strip = (value: unknown) => (value === MISSING ? undefined : value)
const NOT_BOOLEAN_TRUE = [false, "true", "false", 1, "1", "yes", "TRUE", MISSING, null]

const cases = (): Case[] => [
  {
    id: "cognito",
    shape: oidcShape("https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_rt16"),
    make: (linking) =>
      Cognito({
        ...clientOptions(standIn, linking),
        issuer: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_rt16",
      }),
    answer: (answer, flag) => oidcClaims(answer, strip(flag)),
    refused: [false, "false", 1, "1", "yes", "TRUE", " true", MISSING, null],
    vouched: [true, "true"],
  },
  ...(
    [
      ["auth0", "https://rt16.eu.auth0.com", Auth0],
      ["keycloak", "https://keycloak.test/realms/rt16", Keycloak],
      ["okta", "https://rt16.okta.com/oauth2/default", Okta],
    ] as const
  ).map(([id, issuer, factory]): Case => ({
    id,
    shape: oidcShape(issuer),
    make: (linking) => factory({ ...clientOptions(standIn, linking), issuer }),
    answer: (answer, flag) => oidcClaims(answer, strip(flag)),
    refused: NOT_BOOLEAN_TRUE,
    vouched: [true],
  })),
  {
    id: "google",
    shape: oidcShape("https://accounts.google.com"),
    make: (linking) => Google(clientOptions(standIn, linking)),
    // A Workspace account names its domain in `hd`: it changes nothing about the rule.
    answer: (answer, flag) => {
      oidcClaims(answer, strip(flag))
      answer.claims.hd = "mail.test"
    },
    refused: NOT_BOOLEAN_TRUE,
    vouched: [true],
  },
  {
    id: "kakao",
    shape: {
      issuer: "https://kauth.kakao.com",
      authorize: "https://kauth.kakao.com/oauth/authorize",
      token: "https://kauth.kakao.com/oauth/token",
      userinfo: "https://kapi.kakao.com/v2/user/me",
    },
    make: (linking) => Kakao(clientOptions(standIn, linking)),
    // `flag` is [is_email_verified, is_email_valid].
    answer: (answer, flag) => {
      const [verified, valid] = flag as [unknown, unknown]
      answer.userinfoText = undefined
      answer.userinfo = {
        id: 3141592653,
        kakao_account: { email: VICTIM, is_email_verified: verified, is_email_valid: valid },
      }
    },
    refused: [
      [true, false],
      [false, true],
      ["true", "true"],
      [true, undefined],
      [1, 1],
    ],
    vouched: [[true, true]],
  },
  {
    id: "gitlab",
    shape: {
      issuer: "https://gitlab.com",
      authorize: "https://gitlab.com/oauth/authorize",
      token: "https://gitlab.com/oauth/token",
      userinfo: "https://gitlab.com/api/v4/user",
    },
    make: (linking) => GitLab(clientOptions(standIn, linking)),
    answer: (answer, flag) => {
      answer.userinfoText = undefined
      answer.userinfo = { id: 4242, username: "mallory", email: VICTIM, confirmed_at: strip(flag) }
    },
    refused: [null, "", MISSING, true, 1, "yes"],
    vouched: ["2024-02-01T10:00:00.000Z"],
  },
  {
    id: "twitter",
    shape: {
      issuer: "https://x.com",
      authorize: "https://x.com/i/oauth2/authorize",
      token: "https://api.x.com/2/oauth2/token",
      userinfo: "https://api.x.com/2/users/me",
    },
    make: (linking) => Twitter(clientOptions(standIn, linking)),
    // `flag` says where the address is: the legacy `email`, or `confirmed_email`.
    answer: (answer, flag) => {
      answer.userinfoText = undefined
      answer.userinfo = {
        data: { id: "1460000000000000001", name: "M", username: "m", [flag as string]: VICTIM },
      }
    },
    refused: ["email"],
    vouched: ["confirmed_email"],
  },
]

const idps = new Map<string, Awaited<ReturnType<typeof standUp>>>()

beforeAll(async () => {
  standIn = await StandIn.start()
  for (const each of cases()) idps.set(each.id, await standUp(standIn, each.shape))
})
afterAll(() => standIn?.stop())

const label = (flag: unknown) => (flag === MISSING ? "missing" : JSON.stringify(flag))

describe.each(cases().map((each) => [each.id, each] as const))("%s", (id, each) => {
  test.each(each.refused.map((flag) => [label(flag), flag]))(
    "the victim's address, verified %s: never the victim's",
    async (_, flag) => {
      const idp = idps.get(id)!
      for (const [linking, victim] of [
        [true, true],
        [false, true],
        [true, false],
      ] as const) {
        each.answer(idp.answer, flag)
        const { config, backend } = await app(each.make(linking), { adapter: "sqlite", victim })
        const { browser, done } = await signIn(config, id, idp.issuer, { sub: "mallory-1" })
        const seen = await expectNotTheVictims(backend, done)
        expect(seen.victimLinked).toBe(false)
        expect(seen.vouched).toBe(false)
        if (seen.session) expect((await browser.session()).user.email).toBe(victim ? null : VICTIM)
        await backend.close()
      }
    },
  )

  test.each(each.vouched.map((flag) => [label(flag), flag]))(
    "the control: verified %s links to the victim with allowDangerousEmailAccountLinking",
    async (_, flag) => {
      const idp = idps.get(id)!
      each.answer(idp.answer, flag)
      const { config, backend } = await app(each.make(true), { adapter: "sqlite" })
      await signIn(config, id, idp.issuer, { sub: "ada-1" })
      expect((await backend.accounts()).map((account) => account.userId)).toEqual(["victim"])
      await backend.close()
    },
  )
})
