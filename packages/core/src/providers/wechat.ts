/**
 * Sign in with WeChat (OAuth 2.0): in WeChat's browser (an Official Account) or by
 * QR code on a website (a Website App of the WeChat Open Platform).
 *
 * Register your app's domain (the callback is
 * `https://<your app>/auth/callback/wechat`) as the authorized callback domain of
 * your Official Account (网页授权域名) or Website App (授权回调域).
 * `clientId`/`clientSecret` are the AppID and AppSecret, and default to
 * `AUTH_WECHAT_ID`/`AUTH_WECHAT_SECRET`. `platformType` picks the kind of app:
 * `"OfficialAccount"` (default) or `"WebsiteApp"`.
 *
 * @example
 * ```ts
 * import WeChat from "@tessera/core/providers/wechat"
 * WeChat({
 *   clientId: process.env.WECHAT_APP_ID,
 *   clientSecret: process.env.WECHAT_APP_SECRET,
 *   platformType: "WebsiteApp",
 * })
 * ```
 *
 * WeChat's own ways, handled here:
 * - the authorization URL carries the AppID as `appid` (besides `client_id`) and
 *   ends with `#wechat_redirect`; scope `snsapi_userinfo` (Official Account) or
 *   `snsapi_login` (Website App); no PKCE, so the check is `state`;
 * - the code is exchanged by a GET with the AppID and AppSecret as `appid` and
 *   `secret` in the query (WeChat's documented request; it reads nothing else);
 *   the answer has no `token_type` (its tokens are bearer tokens), carries the
 *   user's `openid` (and `unionid`), and comes as `text/plain`;
 * - errors come with status 200 as `{ errcode, errmsg }`, and end the sign-in;
 * - `sns/userinfo` takes the token and the `openid` in the query, not a header;
 * - a refresh is a GET of `sns/oauth2/refresh_token` with `appid`, not client credentials.
 *
 * The user's id is `unionid` (one id across the apps of one Open Platform
 * account), as in Auth.js. An app not bound to an Open Platform account gets no
 * `unionid`; its users are then identified by `openid` (this app's id for them).
 * Binding the app later changes their id: link such accounts yourself.
 *
 * Verified e-mail: none: WeChat shares no address.
 * @see https://developers.weixin.qq.com/doc/offiaccount/OA_Web_Apps/Wechat_webpage_authorization.html
 * @see https://developers.weixin.qq.com/doc/oplatform/Website_App/WeChat_Login/Wechat_Login.html
 * @module
 */
import { OAuthCallbackError } from "../errors.js"
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { Profile } from "../types.js"
import type {
  OAuthConfig,
  OAuthUserConfig,
  ProviderClaim,
  TokenRefreshContext,
  TokenRequestContext,
  TokenSet,
  UserinfoRequestContext,
} from "./oauth.js"

/** The user from `GET /sns/userinfo`. */
export interface WeChatProfile {
  /** The user's id for this app. */
  openid: string
  /** The user's id across the apps of one Open Platform account (when the app is bound to one). */
  unionid?: string
  nickname: string
  /** 1 male, 2 female, 0 unknown. */
  sex: number
  province: string
  city: string
  country: string
  headimgurl: string
  privilege: string[]
  [claim: string]: ProviderClaim
}

/** The code exchange's answer: a token set plus the user's ids. */
export interface WeChatTokenSet extends TokenSet {
  openid?: string
  unionid?: string
  is_snapshotuser?: number
}

export interface WeChatOptions<P> extends OAuthUserConfig<P> {
  /**
   * `"OfficialAccount"` (default): sign in inside WeChat's browser, through an
   * Official Account. `"WebsiteApp"`: scan a QR code, through a Website App.
   */
  platformType?: "OfficialAccount" | "WebsiteApp"
}

const REFRESH_URL = "https://api.weixin.qq.com/sns/oauth2/refresh_token"

/** WeChat's API answers JSON as `text/plain`, and its errors with status 200 as `{ errcode, errmsg }`. */
async function readWeChat(response: Response, what: string): Promise<Record<string, unknown>> {
  const body: unknown = await response
    .text()
    .then((text) => JSON.parse(text))
    .catch(() => undefined)
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new Error(`WeChat: ${what} answered ${response.status} without a JSON object`)
  const { errcode } = body as { errcode?: unknown }
  if (!response.ok || (errcode !== undefined && errcode !== 0))
    throw new Error(`WeChat: ${what} answered ${response.status}, errcode ${String(errcode)}`)
  return body as Record<string, unknown>
}

/**
 * The code exchange, as WeChat documents it: a GET with the AppID, the AppSecret
 * and the code in the query (WeChat reads no form body and no Basic credentials).
 */
async function requestToken(context: TokenRequestContext): Promise<TokenSet> {
  const { provider, params } = context
  const url = new URL(provider.token?.url ?? "")
  url.searchParams.set("appid", provider.clientId ?? "")
  url.searchParams.set("secret", provider.clientSecret ?? "")
  url.searchParams.set("code", params.code ?? "")
  url.searchParams.set("grant_type", "authorization_code")
  const response = await context.fetch(url, { headers: { accept: "application/json" } })
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined)
  // 40029 (invalid code) and 40163 (code already used): a made-up or replayed callback.
  const errcode = (body as { errcode?: unknown } | undefined)?.errcode
  if (errcode === 40029 || errcode === 40163)
    throw new OAuthCallbackError(`WeChat: sns/oauth2/access_token refused the code (${errcode})`)
  const tokens = await readWeChat(response, "sns/oauth2/access_token")
  return { ...tokens, token_type: "bearer" }
}

/** WeChat's refresh: a GET with `appid`, the grant and the refresh token in the query, no secret. */
async function refreshToken(context: TokenRefreshContext): Promise<TokenSet> {
  const url = new URL(REFRESH_URL)
  url.searchParams.set("appid", context.provider.clientId ?? "")
  url.searchParams.set("grant_type", "refresh_token")
  url.searchParams.set("refresh_token", context.refreshToken)
  const response = await context.fetch(url, { headers: { accept: "application/json" } })
  const body: unknown = await response
    .clone()
    .text()
    .then((text) => JSON.parse(text))
    .catch(() => undefined)
  // 40030 (invalid refresh token) and 42002 (refresh token expired): sign in again.
  const errcode = (body as { errcode?: unknown } | undefined)?.errcode
  if (errcode === 40030 || errcode === 42002) return { error: "invalid_grant" }
  const tokens = await readWeChat(response, "sns/oauth2/refresh_token")
  return { ...tokens, token_type: "bearer" }
}

/** `sns/userinfo` with the access token and the `openid` from the token response, in the query. */
async function requestUser(context: UserinfoRequestContext): Promise<Profile> {
  const { provider, tokens } = context
  const openid = (tokens as WeChatTokenSet).openid
  if (typeof openid !== "string" || !openid)
    throw new Error("WeChat: the token response has no openid")
  const url = new URL(provider.userinfo?.url ?? "")
  url.searchParams.set("access_token", String(tokens.access_token))
  url.searchParams.set("openid", openid)
  url.searchParams.set("lang", "zh_CN")
  const response = await context.fetch(url, { headers: { accept: "application/json" } })
  return await readWeChat(response, "sns/userinfo")
}

/**
 * Sign in with WeChat (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (the AppID and AppSecret; default:
 *   `AUTH_WECHAT_ID`, `AUTH_WECHAT_SECRET`), `platformType`, and any option of the generic OAuth
 *   provider to override.
 * @see [Auth.js: WeChat](https://authjs.dev/reference/core/providers/wechat)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function WeChat<P extends WeChatProfile = WeChatProfile>(
  options: WeChatOptions<P> = {},
): OAuthConfig<P> {
  const { platformType = "OfficialAccount", ...rest } = options
  const officialAccount = platformType === "OfficialAccount"
  return {
    id: "wechat",
    name: "WeChat",
    type: "oauth",
    checks: ["state"],
    authorization: {
      // WeChat asks for `#wechat_redirect` at the end of the URL.
      url: officialAccount
        ? "https://open.weixin.qq.com/connect/oauth2/authorize#wechat_redirect"
        : "https://open.weixin.qq.com/connect/qrconnect#wechat_redirect",
      params: {
        appid: rest.clientId,
        scope: officialAccount ? "snsapi_userinfo" : "snsapi_login",
      },
    },
    token: { url: "https://api.weixin.qq.com/sns/oauth2/access_token", request: requestToken },
    tokenRefresh: { request: refreshToken },
    userinfo: { url: "https://api.weixin.qq.com/sns/userinfo", request: requestUser },
    profile(profile) {
      return {
        id: profile.unionid || profile.openid,
        name: profile.nickname || null,
        email: null,
        image: profile.headimgurl || null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#07c160" },
    options: endpointUrlsAsObjects(rest),
  }
}
