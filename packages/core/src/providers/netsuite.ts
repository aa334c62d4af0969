/**
 * Sign in with NetSuite (OAuth 2.0), through a RESTlet of yours that says who
 * the user is.
 *
 * In NetSuite, enable OAuth 2.0 (Setup, Company, Enable Features, SuiteCloud),
 * give the signing-in roles the "Log in using OAuth 2.0 Access Tokens"
 * permission, and create an Integration record with the authorization code
 * grant, the scopes you need (`restlets`, `rest_webservices`) and
 * `https://<your app>/auth/callback/netsuite` as its redirect URI (NetSuite
 * requires https). Deploy a RESTlet whose GET returns the current user from
 * `N/runtime`'s `getCurrentUser()` (`{ id, name, email, role, ... }`) and pass
 * its external URL as `userinfo`. `clientId`/`clientSecret` (the Integration
 * record's consumer key and secret) default to `AUTH_NETSUITE_ID`/`AUTH_NETSUITE_SECRET`.
 *
 * @example
 * ```ts
 * import NetSuite from "@tessera/core/providers/netsuite"
 * NetSuite({
 *   clientId: process.env.AUTH_NETSUITE_ID,
 *   clientSecret: process.env.AUTH_NETSUITE_SECRET,
 *   accountID: "1234567_SB1",
 *   userinfo: "https://1234567-sb1.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=123&deploy=1",
 * })
 * ```
 *
 * NetSuite's ways, handled here:
 * - The endpoints are on the account's own domains,
 *   `<account>.app.netsuite.com` and `<account>.suitetalk.api.netsuite.com`,
 *   where the account id is lower-cased with `_` as `-` (`1234567_SB1` ->
 *   `1234567-sb1`); an account id that cannot be a host name is refused.
 * - The scope is `restlets rest_webservices` (`scope` to change it), the check
 *   `state`; `prompt` (`login`, `consent`, ...) is passed on. The client
 *   authenticates with HTTP Basic.
 * - There is no userinfo endpoint: the RESTlet is called with the access token
 *   and `Content-Type: application/json` (without it a RESTlet answers as
 *   text), and a RESTlet that returns `JSON.stringify(user)` as a string is
 *   read as the object it encodes. Without `userinfo` the configuration is
 *   refused at start.
 *
 * Verified e-mail: none. The employee's `email` comes with no flag saying it was verified.
 * @see https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/chapter_157769826287.html
 * @see https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_157771733782.html
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { Profile } from "../types.js"
import type {
  OAuthConfig,
  OAuthUserConfig,
  ProviderClaim,
  UserinfoRequestContext,
} from "./oauth.js"

/** What the RESTlet returns: `N/runtime`'s current user. */
export interface NetSuiteProfile {
  id: number
  name: string
  email: string
  location: number
  role: number
  roleId?: string
  roleCenter?: string
  contact?: number
  subsidiary?: number
  department?: number
  [claim: string]: ProviderClaim
}

export interface NetSuiteOptions<P> extends OAuthUserConfig<P> {
  /** The account id, e.g. `1234567`, `TSTDRV1234567` or `1234567_SB1` (a sandbox). Required. */
  accountID?: string
  /** The external URL of the RESTlet (or Suitelet) that returns the current user. Required. */
  userinfo?: OAuthUserConfig<P>["userinfo"]
  /** Default `restlets rest_webservices`. */
  scope?: string
  /** When NetSuite shows its login and consent screens: `none`, `login`, `consent`, `login consent`. */
  prompt?: string
}

/**
 * Auth.js's name for NetSuite's own options (`accountID`, `userinfo`, `scope`, `prompt`).
 *
 * @see [Auth.js: NetSuite](https://authjs.dev/reference/core/providers/netsuite)
 */
export type OAuthNetSuiteOptions = Pick<
  NetSuiteOptions<NetSuiteProfile>,
  "accountID" | "userinfo" | "scope" | "prompt"
>

/** The account id as it appears in NetSuite's host names. */
function accountHost(accountID: string): string {
  const host = accountID.trim().toLowerCase().replace(/_/g, "-")
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(host))
    throw new TypeError(`NetSuite: "${accountID.slice(0, 40)}" is not a NetSuite account id`)
  return host
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** GET the RESTlet as JSON; a JSON string holding the user (JSON.stringify in the RESTlet) is decoded. */
async function requestRestlet(context: UserinfoRequestContext): Promise<Profile> {
  const url = context.provider.userinfo?.url
  if (!url) throw new Error("NetSuite: no `userinfo` RESTlet URL")
  const response = await context.fetch(url, {
    headers: {
      accept: "application/json",
      "content-type": "application/json",
      authorization: `Bearer ${String(context.tokens.access_token ?? "")}`,
    },
  })
  if (!response.ok) throw new Error(`NetSuite: the RESTlet answered ${response.status}`)
  let body: unknown = await response.json().catch(() => undefined)
  // Not JSON.parse's own error: its message would quote the RESTlet's answer into the logs.
  if (typeof body === "string") body = parseJson(body)
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new Error("NetSuite: the RESTlet answered no JSON object")
  return body as Profile
}

/**
 * Sign in with NetSuite (OAuth 2.0).
 *
 * @param options `accountID` and `userinfo` (your RESTlet's URL), `clientId` and `clientSecret`
 *   (default `AUTH_NETSUITE_ID`, `AUTH_NETSUITE_SECRET`), `scope`, `prompt`, and any OAuth option to override.
 * @see [Auth.js: NetSuite](https://authjs.dev/reference/core/providers/netsuite)
 * @see https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/chapter_157769826287.html
 */
export default function NetSuite<P extends NetSuiteProfile = NetSuiteProfile>(
  options: NetSuiteOptions<P> = {},
): OAuthConfig<P> {
  const { accountID, scope, prompt, ...rest } = options
  // With no account (or no RESTlet), resolution refuses the configuration, naming what is missing.
  const host = accountID ? accountHost(accountID) : undefined
  const params: Record<string, string> = { scope: scope ?? "restlets rest_webservices" }
  if (prompt) params.prompt = prompt
  return {
    id: "netsuite",
    name: "NetSuite",
    type: "oauth",
    ...(host
      ? {
          authorization: {
            url: `https://${host}.app.netsuite.com/app/login/oauth2/authorize.nl`,
            params,
          },
          token: `https://${host}.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token`,
        }
      : {}),
    ...(rest.userinfo ? { userinfo: { request: requestRestlet } } : {}),
    checks: ["state"],
    profile(profile) {
      return {
        id: idText(profile.id),
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#181a1b" },
    options: endpointUrlsAsObjects(rest),
  }
}
