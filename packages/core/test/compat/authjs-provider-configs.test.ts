/**
 * Every OAuth/OIDC provider factory of `@tessera/core/providers/<file>` gives the
 * configuration `@auth/core/providers/<file>` (0.41.3) gives, field by field,
 * except the differences listed in DELIBERATE (each explained in the provider's
 * module, in providers.md or in the migration guide). A new difference fails.
 *
 * Auth.js's side is recorded in fixtures/authjs-provider-configs.json: the
 * baseline (bench/.baseline, git-ignored) is not installed where `npm test`
 * runs, and Tessera never depends on @auth/*. To record it again, run this file
 * with `AUTHJS_DIR` naming a folder whose node_modules holds @auth/core 0.41.3:
 *   AUTHJS_DIR=bench/.baseline/authjs npx vitest run packages/core/test/compat/authjs-provider-configs.test.ts
 *   npx prettier --write packages/core/test/fixtures/authjs-provider-configs.json
 *
 * Compared after each library's own defaults (the checks, the OIDC `wellKnown`,
 * Auth.js's default `scope`, `idToken`), with endpoints as `{ url, params }`
 * (a URL's query read as params, scopes sorted) and the protocol's own
 * parameters (`client_id`, `response_type=code`, `redirect_uri`) left out, as
 * both libraries set them. `profile()` is called with one generic profile and
 * compared where both return (null and a missing field alike). Not compared:
 * `style` (Tessera's pages take `{ brandColor, logo }`), Tessera's own
 * `verifiedEmail` and `tokenRefresh`, and the endpoints' `request`/`conform`
 * functions (the provider tests drive those).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { isDeepStrictEqual } from "node:util"
import { describe, expect, test } from "vitest"
import { merge } from "../../src/config/merge.js"

type Shape = Record<string, unknown>
type Factory = (options: Record<string, unknown>) => Record<string, unknown>

const FIXTURE = new URL("../fixtures/authjs-provider-configs.json", import.meta.url)
const ISSUER = "https://issuer.example.com/realm"

/** The options both factories get: an issuer, tenant or account where a factory needs one. */
const OPTIONS: Record<string, Record<string, string>> = {
  osso: { issuer: "https://issuer.example.com/" },
  netsuite: { accountID: "acct" },
  "azure-ad-b2c": { issuer: ISSUER, tenantId: "tenant" },
  "microsoft-entra-id": { tenantId: "tenant" },
}
const WITH_ISSUER = `asgardeo authentik beyondidentity boxyhq-saml cognito descope
  duende-identity-server6 frontegg fusionauth identity-server4 keycloak kinde logto mastodon
  mattermost nextcloud okta onelogin ory-hydra passage ping-id united-effects zitadel`.split(/\s+/)
const OAUTH = `42-school apple asgardeo atlassian auth0 authentik azure-ad azure-ad-b2c azure-devops
  bankid-no battlenet beyondidentity bitbucket box boxyhq-saml bungie click-up cognito coinbase
  concept2 descope discord dribbble dropbox duende-identity-server6 eventbrite eveonline facebook
  faceit figma foursquare freshbooks frontegg fusionauth github gitlab google hubspot huggingface
  identity-server4 instagram kakao keycloak kinde line linkedin logto mailchimp mailru mastodon
  mattermost medium microsoft-entra-id naver netlify netsuite nextcloud notion okta onelogin
  ory-hydra osso osu passage patreon ping-id pinterest pipedrive reddit roblox salesforce
  simplelogin slack spotify strava threads tiktok todoist trakt twitch twitter united-effects vipps
  vk webex wechat wikimedia wordpress workos yandex zitadel zoho zoom`.split(/\s+/)

function optionsFor(file: string): Record<string, string> {
  const base = { clientId: "id", clientSecret: "secret" }
  return { ...base, ...(WITH_ISSUER.includes(file) ? { issuer: ISSUER } : {}), ...OPTIONS[file] }
}

const SAMPLE = {
  id: "123",
  sub: "123",
  name: "Ada Lovelace",
  nickname: "ada",
  preferred_username: "ada",
  login: "ada",
  username: "ada",
  email: "ada@example.com",
  email_verified: true,
  picture: "https://img.example.com/a.png",
  avatar_url: "https://img.example.com/a.png",
  given_name: "Ada",
  family_name: "Lovelace",
  first_name: "Ada",
  last_name: "Lovelace",
}
const TOKENS = {
  access_token: "at",
  refresh_token: "rt",
  id_token: "it",
  expires_at: 1700000000,
  scope: "a b",
  token_type: "bearer",
  session_state: "ss",
  other: "x",
}
/** Parameters both libraries set on every authorization URL themselves. */
const PROTOCOL = { client_id: "id", response_type: "code" } as Record<string, string>

/**
 * Where Tessera's factory differs on purpose: provider -> field -> why. The
 * reasons are in the provider's module unless said otherwise.
 */
const DELIBERATE: Record<string, Record<string, string>> = {
  apple: {
    idToken: "the profile is the ID Token's claims plus the form_post `user` (userinfo.request)",
    "profile()": "the name only from Apple's `user`, never the e-mail address",
  },
  asgardeo: {
    wellKnown: "Auth.js's `<issuer>/oauth2/token/.well-known/...` for the documented issuer",
  },
  "azure-ad": {
    issuer: "tenant-specific, no `common` (migration guide)",
    wellKnown: "the tenant's, from the issuer",
    authorization: "no `User.Read` scope, no photo (migration guide)",
    client: "client_secret_post, as Microsoft documents",
  },
  "azure-devops": {
    token: "Auth.js's token URL is the authorize URL (its request fixes it)",
    checks: "no PKCE at Azure DevOps: state",
  },
  battlenet: {
    issuer: "a default region (US)",
    wellKnown: "the default region's",
    authorization: "scope `openid` as Battle.net asks",
  },
  beyondidentity: { "profile()": "a User has id, name, email, image only" },
  box: { client: "client_secret_post, as Box documents" },
  bungie: {
    userinfo: "GetMembershipsForCurrentUser (Auth.js's URL has a placeholder)",
    checks: "no PKCE: state",
  },
  "click-up": { client: "client_secret_post, as ClickUp documents" },
  discord: {
    authorization: "Discord's documented URL",
    client: "client_secret_post, as Discord documents",
  },
  facebook: {
    authorization: "the app's default API version (no v19.0)",
    client: "client_secret_post",
    checks: "no PKCE at Facebook: state",
  },
  faceit: {
    checks: "state besides PKCE",
    headers: "Auth.js's unused `headers`; HTTP Basic is the default",
  },
  foursquare: { client: "client_secret_post", checks: "state besides PKCE" },
  freshbooks: { client: "client_secret_post", checks: "state besides PKCE" },
  fusionauth: { token: "from discovery", userinfo: "from discovery" },
  github: {
    issuer: "GitHub sends no `iss` to check",
    client: "client_secret_post, as GitHub documents",
  },
  gitlab: { client: "client_secret_post, as GitLab documents" },
  line: { client: "client_secret_post, as LINE documents" },
  mailchimp: { client: "client_secret_post", checks: "state besides PKCE" },
  mailru: { "profile()": "Mail.ru's picture is `image`" },
  mastodon: { issuer: "the instance URL, not an OIDC issuer" },
  mattermost: { checks: "state besides PKCE" },
  medium: { client: "client_secret_post", checks: "no PKCE at Medium: state" },
  "microsoft-entra-id": {
    issuer: "tenant-specific, no `common` (migration guide)",
    authorization: "no `User.Read` scope, no photo (migration guide)",
    wellKnown: "the tenant's, from the issuer",
    client: "client_secret_post, as Microsoft documents",
  },
  naver: { checks: "no PKCE at Naver: state" },
  nextcloud: {
    issuer: "the server URL; Nextcloud sends no `iss`",
    checks: "state besides PKCE",
    "profile()": "the id when there is no display name",
  },
  notion: { userinfo: "the URL its request reads" },
  onelogin: { issuer: "`<issuer>/oidc/2`, the `iss` of OneLogin's tokens" },
  osso: {
    issuer: "the server URL, not an OIDC issuer",
    checks: "state besides PKCE",
    "profile()": "Osso's /oauth/me has no name or picture",
  },
  patreon: { client: "client_secret_post, as Patreon documents" },
  pipedrive: {
    userinfo: "`/v1/users/me`: Auth.js's `/users/me` is not Pipedrive's",
    checks: "state besides PKCE",
  },
  reddit: { "profile()": "Reddit's /me has no e-mail" },
  roblox: { "profile()": "Roblox gives no e-mail address" },
  slack: { checks: "state besides nonce (Slack has no PKCE)", client: "client_secret_post" },
  strava: { "profile()": "the username when there is no name" },
  tiktok: { client: "its own token request (client_key)" },
  todoist: {
    userinfo: "Todoist's API v1 (the Sync API Auth.js reads is retired)",
    checks: "no PKCE: state",
  },
  trakt: { checks: "state besides PKCE" },
  twitch: {
    authorization: "the `claims` request asks for `email_verified` too",
    checks: "Twitch has no PKCE: state (and nonce)",
    "profile()": "preferred_username, the ID Token's only name",
  },
  vk: {
    // The specification fixes VK's default API version at 5.126; Auth.js's code sends 5.131.
    authorization: "API version 5.126 (`v`), the specification's default",
    token: "API version 5.126 (`v`), the specification's default",
    userinfo: "API version 5.126 (`v`), the specification's default",
    checks: "no PKCE at VK: state",
  },
  webex: { client: "client_secret_post, as Webex documents" },
  wechat: { authorization: "`#wechat_redirect`, as WeChat asks", token: "its own token request" },
  wordpress: { client: "client_secret_post", checks: "state besides PKCE" },
  workos: { authorization: "no empty `connection=`: the app passes one at sign-in" },
  zoho: { client: "client_secret_post", checks: "state besides PKCE" },
}

/** Fields read from the resolved configuration (everything else is compared in `rest`). */
const SKIPPED = new Set([
  ...["profile", "account", "clientId", "clientSecret", "style", "verifiedEmail", "tokenRefresh"],
  // Options a factory reads (Auth.js also keeps them in the configuration).
  ...["tenantId", "accountID"],
])

function endpoint(value: unknown, addScope: boolean): Shape | undefined {
  if (value == null) return addScope ? { params: { scope: "email openid profile" } } : undefined
  if (typeof value === "object" && !("url" in value) && !("params" in value) && !addScope)
    return undefined
  const given = (typeof value === "string" ? { url: value } : value) as {
    url?: unknown
    params?: Record<string, unknown>
  }
  const params: Record<string, string> = {}
  let url: string | undefined
  if (given.url !== undefined) {
    try {
      const parsed = new URL(String(given.url))
      for (const [key, v] of parsed.searchParams) params[key] = v
      parsed.search = ""
      url = parsed.href
    } catch {
      url = String(given.url)
    }
  }
  for (const [key, v] of Object.entries(given.params ?? {}))
    if (v !== undefined) params[key] = typeof v === "object" ? JSON.stringify(v) : String(v)
  for (const [key, v] of Object.entries(PROTOCOL)) if (params[key] === v) delete params[key]
  // Auth.js's empty `scope=` only keeps its default scope off an OAuth 2 provider.
  if (params.scope === "") delete params.scope
  if (addScope && params.scope === undefined) params.scope = "openid profile email"
  if (params.scope !== undefined)
    params.scope = params.scope
      .split(/[\s,+]+/)
      .filter(Boolean)
      .sort()
      .join(" ")
  if (url === undefined && Object.keys(params).length === 0) return undefined
  return url === undefined ? { params } : { url, params }
}

const plain = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value ?? null, (_, v: unknown) => (typeof v === "function" ? undefined : v)),
  )
const withoutNulls = (value: unknown) =>
  value && typeof value === "object"
    ? Object.fromEntries(Object.entries(value).filter(([, v]) => v != null && v !== ""))
    : value

async function returned(fn: unknown, ...args: unknown[]): Promise<unknown> {
  if (typeof fn !== "function") return "none"
  try {
    return withoutNulls(plain(await (fn as (...a: unknown[]) => unknown)(...args)))
  } catch {
    return "throws"
  }
}

/** One library's provider, resolved as that library resolves it, as comparable values. */
async function shape(
  factory: Factory,
  file: string,
  lib: "authjs" | "tessera",
  mergeWith: (a: object, b: unknown) => Record<string, unknown>,
): Promise<Shape> {
  const { options, ...defaults } = factory(optionsFor(file))
  const config = mergeWith(defaults, options)
  const oidc = config.type === "oidc"
  const result: Shape = {}
  for (const [key, value] of Object.entries(config))
    if (!SKIPPED.has(key)) result[key] = plain(value)
  result.wellKnown =
    config.wellKnown ??
    (oidc && config.issuer ? `${String(config.issuer)}/.well-known/openid-configuration` : null)
  // The default scope is OIDC's only: Auth.js also gives `openid profile email` to OAuth 2
  // providers that name no scope, Tessera none (migration guide).
  result.authorization = endpoint(config.authorization, oidc) ?? null
  result.token = endpoint(config.token, false) ?? null
  result.userinfo = endpoint(config.userinfo, false) ?? null
  // Tessera checks `nonce` on every OIDC provider it can (migration guide): compared without it.
  const checks = (config.checks as string[] | undefined) ?? ["pkce"]
  result.checks = checks.filter((check) => !(oidc && check === "nonce")).sort()
  result.idToken = config.idToken ?? oidc
  result.client = plain(config.client)
  const authjsDefault = (p: typeof SAMPLE) => ({
    id: p.sub ?? p.id,
    name: p.name ?? p.nickname ?? p.preferred_username,
    email: p.email,
    image: p.picture,
  })
  result["profile()"] = await returned(
    config.profile ?? authjsDefault,
    structuredClone(SAMPLE),
    structuredClone(TOKENS),
  )
  if (config.account) result["account()"] = await returned(config.account, structuredClone(TOKENS))
  return plain(result) as Shape
}

/** Records Auth.js's shapes from the baseline named by AUTHJS_DIR. */
async function record(dir: string): Promise<void> {
  const core = join(resolve(dir), "node_modules", "@auth", "core")
  if (!existsSync(core)) throw new Error(`No @auth/core under ${dir}`)
  const load = (file: string) => import(pathToFileURL(join(core, file)).href)
  const { merge: authjsMerge } = (await load("lib/utils/merge.js")) as {
    merge: (a: object, b: unknown) => Record<string, unknown>
  }
  const shapes: Record<string, Shape> = {}
  for (const file of OAUTH) {
    const factory = ((await load(`providers/${file}.js`)) as { default: Factory }).default
    shapes[file] = await shape(factory, file, "authjs", authjsMerge)
  }
  writeFileSync(FIXTURE, JSON.stringify(shapes, null, 1) + "\n")
}

if (process.env.AUTHJS_DIR) await record(process.env.AUTHJS_DIR)
const AUTHJS = JSON.parse(readFileSync(FIXTURE, "utf8")) as Record<string, Shape>

test("the fixture has every OAuth/OIDC provider module of Auth.js", () => {
  expect(Object.keys(AUTHJS).sort()).toEqual([...OAUTH].sort())
  for (const provider of Object.keys(DELIBERATE)) expect(OAUTH).toContain(provider)
})

describe.each(OAUTH)("@tessera/core/providers/%s", (file) => {
  test("is configured as Auth.js's, but for the deliberate differences", async () => {
    const factory = ((await import(`@tessera/core/providers/${file}`)) as { default: Factory })
      .default
    const ours = await shape(factory, file, "tessera", merge)
    const theirs = AUTHJS[file]!
    const differing: Record<string, { tessera: unknown; authjs: unknown }> = {}
    for (const key of new Set([...Object.keys(ours), ...Object.keys(theirs)])) {
      const [t, a] = [ours[key] ?? null, theirs[key] ?? null]
      // A profile() that throws on the generic profile is left to the provider's own tests.
      if (key === "profile()" && (t === "throws" || a === "throws")) continue
      if (!isDeepStrictEqual(t, a)) differing[key] = { tessera: t, authjs: a }
    }
    expect(Object.keys(differing).sort(), `${file}: ${JSON.stringify(differing)}`).toEqual(
      Object.keys(DELIBERATE[file] ?? {}).sort(),
    )
  })
})
