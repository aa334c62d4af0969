/**
 * Red team, round 16: Microsoft Entra ID through `Auth()` on SQLite and the memory adapter.
 * Entra signs every tenant's tokens with the same keys, and a tenant's admin can set any `email`
 * on its users ("nOAuth"): the attacker owns tenant B, or is a user of the app's tenant A whose
 * `email` is the victim's. Attacked:
 *
 * - a token of tenant B at an app of tenant A (`iss` of B), and a token whose `iss` names A but
 *   whose `tid` names B: refused, whatever the e-mail says;
 * - the victim's address in `email` with `xms_edov` missing, false, `"true"`, `1`: never links,
 *   not even with `allowDangerousEmailAccountLinking`, and is not stored as verified;
 * - the multi-tenant endpoints (`common`, `organizations`, `consumers`) given as the issuer, where
 *   discovery answers the templated `https://login.microsoftonline.com/{tenantid}/v2.0`: refused
 *   when the provider is made, as `tenantId: "common"` already was, never a sign-in that
 *   accepts any tenant's token.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import MicrosoftEntraID from "@tessera/core/providers/microsoft-entra-id"
import { AppBrowser, StandIn } from "@tessera/testing"
import {
  app,
  clientOptions,
  expectNotTheVictims,
  ORIGIN,
  signIn,
  standUp,
  VICTIM,
} from "./redteam16-helpers.js"

const TENANT_A = "9188040d-6c67-4c5b-b112-36a304b66dad"
const TENANT_B = "72f988bf-86f1-41af-91ab-2d7cd011db47"
const base = (tenant: string) => `https://login.microsoftonline.com/${tenant}`

let standIn: StandIn
let entra: Awaited<ReturnType<typeof standUp>>

beforeAll(async () => {
  standIn = await StandIn.start()
  entra = await standUp(standIn, {
    issuer: `${base(TENANT_A)}/v2.0`,
    authorize: `${base(TENANT_A)}/oauth2/v2.0/authorize`,
    token: `${base(TENANT_A)}/oauth2/v2.0/token`,
    jwks: `${base(TENANT_A)}/discovery/v2.0/keys`,
  })
})
afterAll(() => standIn?.stop())

const claims = (tenant: string, extra: Record<string, unknown> = {}) => ({
  ver: "2.0",
  iss: `${base(tenant)}/v2.0`,
  tid: tenant,
  oid: "00000000-0000-0000-66f3-3332eca7ea81",
  name: "Mallory",
  preferred_username: "mallory@attacker.example",
  email: VICTIM,
  ...extra,
})

const entraApp = (linking: boolean, adapter: "memory" | "sqlite") =>
  app(MicrosoftEntraID({ ...clientOptions(standIn, linking), tenantId: TENANT_A }), { adapter })

describe.each(["memory", "sqlite"] as const)("on the %s adapter", (adapter) => {
  test.each([
    ["a token of tenant B (iss and tid of B)", claims(TENANT_B, { xms_edov: true })],
    [
      "iss of A, tid of B",
      { ...claims(TENANT_B, { xms_edov: true }), iss: `${base(TENANT_A)}/v2.0` },
    ],
    ["iss of A, no tid", { ...claims(TENANT_A, { xms_edov: true }), tid: undefined }],
  ])("%s: refused, no row", async (_, idToken) => {
    for (const linking of [true, false]) {
      entra.answer.claims = idToken
      const { config, backend } = await entraApp(linking, adapter)
      const { done } = await signIn(config, "microsoft-entra-id", entra.issuer, { sub: "mallory" })
      expect(done.headers.get("location")).toMatch(new RegExp(`^${ORIGIN}/auth/(signin|error)\\?`))
      const seen = await expectNotTheVictims(backend, done)
      expect(seen).toMatchObject({ victimLinked: false, session: false, accounts: [] })
      await backend.close()
    }
  })

  test("iss of A, tid of B, with the app's own profile callback: still refused", async () => {
    // An address of no one here: without the check, this would sign in.
    entra.answer.claims = {
      ...claims(TENANT_B, { email: "mallory@fabrikam.example" }),
      iss: `${base(TENANT_A)}/v2.0`,
    }
    const provider = MicrosoftEntraID({
      ...clientOptions(standIn, true),
      tenantId: TENANT_A,
      profile: (profile) => ({ id: profile.oid, name: profile.name, email: profile.email }),
    })
    const { config, backend } = await app(provider, { adapter })
    const { done } = await signIn(config, "microsoft-entra-id", entra.issuer, { sub: "mallory" })
    expect(done.headers.get("location")).toMatch(new RegExp(`^${ORIGIN}/auth/(signin|error)\\?`))
    expect(await backend.accounts()).toEqual([])
    await backend.close()
  })

  test.each([undefined, false, "true", 1, "1"])(
    "nOAuth: the victim's address as `email` of a user of the app's own tenant, xms_edov %s: never the victim's",
    async (xms_edov) => {
      for (const linking of [true, false]) {
        entra.answer.claims = claims(TENANT_A, { xms_edov })
        const { config, backend } = await entraApp(linking, adapter)
        const { done } = await signIn(config, "microsoft-entra-id", entra.issuer, {
          sub: "mallory",
        })
        const seen = await expectNotTheVictims(backend, done)
        expect(seen.victimLinked).toBe(false)
        expect(seen.vouched).toBe(false)
        expect(done.headers.get("location")).toBe(
          `${ORIGIN}/auth/signin?error=OAuthAccountNotLinked`,
        )
        await backend.close()
      }
    },
  )

  test("the control: xms_edov true in the app's tenant links with allowDangerousEmailAccountLinking, keyed by sub", async () => {
    entra.answer.claims = claims(TENANT_A, { xms_edov: true })
    const { config, backend } = await entraApp(true, adapter)
    const { done } = await signIn(config, "microsoft-entra-id", entra.issuer, { sub: "ada-sub" })
    expect(done.headers.get("location")).toBe(`${ORIGIN}/`)
    expect(await backend.accounts()).toMatchObject([
      { userId: "victim", provider: "microsoft-entra-id", providerAccountId: "ada-sub" },
    ])
    await backend.close()
  })
})

describe("the multi-tenant endpoints as the issuer", () => {
  test("given past the factory (AUTH_MICROSOFT_ENTRA_ID_ISSUER on a made provider): discovery names {tenantid}, the sign-in fails, no row", async () => {
    const common = await standUp(standIn, {
      issuer: `${base("common")}/v2.0`,
      authorize: `${base("common")}/oauth2/v2.0/authorize`,
      token: `${base("common")}/oauth2/v2.0/token`,
      jwks: `${base("common")}/discovery/v2.0/keys`,
    })
    // What Microsoft's common discovery document says.
    standIn.on("GET", `${base("common")}/v2.0/.well-known/openid-configuration`, () =>
      Response.json({
        issuer: `${base("{tenantid}")}/v2.0`,
        authorization_endpoint: `${base("common")}/oauth2/v2.0/authorize`,
        token_endpoint: `${base("common")}/oauth2/v2.0/token`,
        jwks_uri: `${base("common")}/discovery/v2.0/keys`,
        response_types_supported: ["code"],
        subject_types_supported: ["pairwise"],
        id_token_signing_alg_values_supported: ["RS256"],
      }),
    )
    common.answer.claims = claims(TENANT_B, { xms_edov: true })
    const made = MicrosoftEntraID(clientOptions(standIn, true))
    const provider = { ...made, issuer: `${base("common")}/v2.0` }
    const { config, backend } = await app(provider, { adapter: "sqlite" })
    const browser = new AppBrowser(config, ORIGIN)
    const start = await browser.startSignIn("microsoft-entra-id")
    expect(start.headers.get("location")).toMatch(new RegExp(`^${ORIGIN}/auth/(signin|error)\\?`))
    // Refused at discovery: the document's issuer is not the one configured.
    expect(
      standIn.requestsTo(`${base("common")}/v2.0/.well-known/openid-configuration`),
    ).toHaveLength(1)
    expect(await backend.accounts()).toEqual([])
    await backend.close()
  })

  test.each(["common", "organizations", "consumers", "Common"])(
    "issuer https://login.microsoftonline.com/%s/v2.0: refused when the provider is made",
    (tenant) => {
      expect(() =>
        MicrosoftEntraID({ ...clientOptions(standIn, false), issuer: `${base(tenant)}/v2.0` }),
      ).toThrow(/not a tenant id/)
      expect(() =>
        MicrosoftEntraID({
          ...clientOptions(standIn, false),
          issuer: `${base("{tenantid}")}/v2.0`,
        }),
      ).toThrow(/not a tenant id/)
    },
  )
})
