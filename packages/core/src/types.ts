/**
 * Public types shared by every part of Tessera. Mirrors `@auth/core/types`.
 * @module
 */
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server"
import type { Adapter, AdapterSession, AdapterSessionRecord, AdapterUser } from "./adapters.js"
import type { JWT, JWTOptions } from "./jwt.js"
import type { Provider, ProviderType } from "./providers/index.js"
import type { MessageKey as LocaleMessageKey } from "./pages/i18n/localization.js"

export type { ProviderType } from "./providers/index.js"
export type { JWT } from "./jwt.js"
export type { AuthConfig } from "./config/auth-config.js"

/**
 * A value, or a promise of it: what a callback may return.
 *
 * @see [Auth.js: Awaitable](https://authjs.dev/reference/core/types#awaitable)
 */
export type Awaitable<T> = T | PromiseLike<T>
/**
 * The value a promise-like resolves to (the value itself otherwise).
 *
 * @see [TypeScript: Awaited](https://www.typescriptlang.org/docs/handbook/utility-types.html#awaitedtype)
 */
export type Awaited<T> = T extends PromiseLike<infer U> ? U : T

/**
 * A version as `v1`, `v1.2` or `v1.2.3`.
 *
 * @see [Auth.js: SemverString](https://authjs.dev/reference/core/types#semverstring)
 */
export type SemverString = `v${number}` | `v${number}.${number}` | `v${number}.${number}.${number}`

/**
 * The JSON body of `GET webauthn-options/<provider>`: the ceremony and its options, as
 * `startAuthentication` / `startRegistration` of @simplewebauthn/browser take them.
 *
 * @see [Auth.js: WebAuthnOptionsResponseBody](https://authjs.dev/reference/core/types)
 */
export type WebAuthnOptionsResponseBody =
  | { action: "authenticate"; options: PublicKeyCredentialRequestOptionsJSON }
  | { action: "register"; options: PublicKeyCredentialCreationOptionsJSON }

/**
 * The fields every user has, whatever an app adds to {@link User} by module augmentation.
 *
 * @see [Auth.js: DefaultUser](https://authjs.dev/reference/core/types#defaultuser)
 * @see [OpenID Connect Core 1.0 §5.1, Standard Claims](https://openid.net/specs/openid-connect-core-1_0.html#StandardClaims) (`name`, `email`, `picture`)
 */
export interface DefaultUser {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
}

/**
 * The shape of the user returned by providers' `profile` and credentials' `authorize`:
 * extend it with module augmentation (`declare module "@tessera/core/types"`).
 *
 * @see [Auth.js: User](https://authjs.dev/reference/core/types#user)
 */
export interface User extends DefaultUser {}

/**
 * The session returned by the `session` action and `auth()` helpers.
 *
 * @see [Auth.js: DefaultSession](https://authjs.dev/reference/core/types#defaultsession)
 */
export interface DefaultSession {
  user?: User
  /** ISO 8601 expiry time. */
  expires: string
}

/**
 * The session: extend it with module augmentation (`declare module "@tessera/core/types"`).
 *
 * @see [Auth.js: Session](https://authjs.dev/reference/core/types#session)
 */
export interface Session extends DefaultSession {}

/**
 * Standard OpenID Connect claims, plus anything a provider sends.
 *
 * @see [OpenID Connect Core 1.0 §5.1, Standard Claims](https://openid.net/specs/openid-connect-core-1_0.html#StandardClaims)
 * @see [Auth.js: Profile](https://authjs.dev/reference/core/types#profile)
 */
export interface Profile {
  id?: string | null
  sub?: string | null
  name?: string | null
  given_name?: string | null
  family_name?: string | null
  middle_name?: string | null
  nickname?: string | null
  preferred_username?: string | null
  profile?: string | null
  picture?: any
  website?: string | null
  email?: string | null
  email_verified?: boolean | null
  gender?: string | null
  birthdate?: string | null
  zoneinfo?: string | null
  locale?: string | null
  phone_number?: string | null
  updated_at?: Date | string | number | null
  address?: {
    formatted?: string | null
    street_address?: string | null
    locality?: string | null
    region?: string | null
    postal_code?: string | null
    country?: string | null
  } | null
  [claim: string]: unknown
}

/**
 * An OAuth 2.0 / OIDC token endpoint response, plus `expires_at` (seconds, absolute).
 *
 * @see [RFC 6749 §5.1, Successful Response](https://www.rfc-editor.org/rfc/rfc6749.html#section-5.1)
 * @see [OpenID Connect Core 1.0 §3.1.3.3, Successful Token Response](https://openid.net/specs/openid-connect-core-1_0.html#TokenResponse)
 */
export interface TokenSet {
  access_token?: string
  token_type?: Lowercase<string>
  id_token?: string
  refresh_token?: string
  scope?: string
  expires_in?: number
  /** Absolute expiry time in seconds since the epoch, computed from `expires_in`. */
  expires_at?: number
  [parameter: string]: unknown
}

/**
 * A provider identity. Extends the token endpoint response.
 *
 * @see [Auth.js: Account](https://authjs.dev/reference/core/types#account)
 * @see [RFC 6749 §5.1, Successful Response](https://www.rfc-editor.org/rfc/rfc6749.html#section-5.1)
 */
export interface Account extends Partial<TokenSet> {
  provider: string
  /** oauth/oidc: the id from `profile`; email: the address; credentials: the id from `authorize`. */
  providerAccountId: string
  type: ProviderType
  userId?: string
  /** Always lower-cased. */
  token_type?: Lowercase<string>
}

/**
 * A WebAuthn authenticator. Ids and keys are base64url strings.
 *
 * @see [Web Authentication Level 3 §6.1, Authenticator Data](https://www.w3.org/TR/webauthn-3/#sctn-authenticator-data) (the signature counter)
 * @see [Auth.js: Authenticator](https://authjs.dev/reference/core/types#authenticator)
 */
export interface Authenticator {
  credentialID: string
  userId?: string
  providerAccountId: string
  counter: number
  credentialBackedUp: boolean
  credentialPublicKey: string
  /** Comma-separated transports, e.g. "internal,hybrid". */
  transports?: string | null
  credentialDeviceType: string
}

/**
 * The actions `Auth()` answers under `basePath`: `/auth/<action>[/<provider>]`.
 * (`sessions`, `sessions/revoke`, `backchannel-logout` and the `two-factor` ones are
 * Tessera additions.)
 *
 * @see [Auth.js: AuthAction](https://authjs.dev/reference/core/types#authaction)
 */
export type AuthAction =
  | "backchannel-logout"
  | "callback"
  | "csrf"
  | "error"
  | "providers"
  | "session"
  | "sessions"
  | "sessions/revoke"
  | "signin"
  | "signout"
  | "verify-request"
  | "webauthn-options"
  | "two-factor"
  | "two-factor/setup"
  | "two-factor/enable"
  | "two-factor/disable"
  | "two-factor/status"

/**
 * Paths of your own pages that replace the built-in ones.
 *
 * @see [Auth.js: PagesOptions](https://authjs.dev/reference/core/types#pagesoptions)
 */
export interface PagesOptions {
  /** Default `${basePath}/signin`. Receives `error` and `callbackUrl` query parameters. */
  signIn: string
  signOut: string
  /** Receives the `error` query parameter. */
  error: string
  verifyRequest: string
  /** First-time users are sent here after sign-in when set. */
  newUser: string
  /**
   * Where a user with a second factor enters the code after the first factor.
   * Default `${basePath}/two-factor`. Receives the `error` query parameter;
   * its form posts `code` and the CSRF token to `${basePath}/callback/two-factor`.
   * (Tessera addition; optional, so that an object with Auth.js's five pages is a
   * `PagesOptions`.)
   */
  twoFactor?: string
}

/**
 * The `error` values `pages.error` receives.
 *
 * @see [Auth.js: ErrorPageParam](https://authjs.dev/reference/core/types#errorpageparam)
 * @see {@link PagesOptions}
 */
export type ErrorPageParam = "Configuration" | "AccessDenied" | "Verification"

/**
 * The `error` values `pages.signIn` receives: Auth.js's, and Tessera's `RateLimited`,
 * `TwoFactor` and `TwoFactorExpired`.
 *
 * @see [Auth.js: SignInPageErrorParam](https://authjs.dev/reference/core/types#signinpageerrorparam)
 * @see {@link PagesOptions}
 */
export type SignInPageErrorParam =
  | "Signin"
  | "OAuthSignin"
  | "OAuthCallbackError"
  | "OAuthCreateAccount"
  | "EmailCreateAccount"
  | "Callback"
  | "OAuthAccountNotLinked"
  | "EmailSignin"
  | "CredentialsSignin"
  | "SessionRequired"
  | "RateLimited"
  | "TwoFactor"
  | "TwoFactorExpired"

/**
 * The name of a string of the built-in pages and the sign-in e-mail, such as
 * `"signIn.title"` or `"signIn.error.CredentialsSignin"`: the keys of
 * {@link Theme.messages}. (Tessera addition.)
 *
 * @see docs/pages.md, "Strings" (every key with its English text)
 */
export type MessageKey = LocaleMessageKey

/**
 * The look and language of the built-in pages and of the sign-in e-mail.
 *
 * @see [Auth.js: Theme](https://authjs.dev/reference/core/types#theme)
 * @see docs/pages.md
 */
export interface Theme {
  /** `"auto"` (default) follows the visitor's system setting. */
  colorScheme?: "auto" | "dark" | "light"
  /** The URL of a logo shown above every page. */
  logo?: string
  /** The colour of the buttons (a CSS colour: `#rrggbb`, `rgb()`, `hsl()` or a name). */
  brandColor?: string
  /**
   * The colour of the buttons' text. Default: black or white, whichever
   * contrasts more with `brandColor` (so a light brand colour stays readable).
   */
  buttonText?: string
  /**
   * Every page and e-mail in this locale (a BCP 47 tag: `"de"`, `"pt-BR"`).
   * Default: negotiated per request from `Accept-Language` among `locales`.
   * It needs strings: a built-in catalog (en, de, fr, es, pt, ru, ja, zh) for
   * the tag or its language, or `messages` for it. (Tessera addition.)
   */
  locale?: string
  /**
   * The locales `Accept-Language` is matched against (RFC 4647 lookup:
   * `de-CH` finds `de`); the first is used when none matches. Default: the
   * built-in locales and those in `messages`, falling back to English.
   * (Tessera addition.)
   */
  locales?: string[]
  /**
   * Your own strings, by locale and key, merged over the built-in ones:
   * `{ en: { "signIn.title": "Log in" }, ar: { ... } }`. A locale Tessera does
   * not ship (Arabic, say) takes what it lacks from English; right-to-left
   * languages get `dir="rtl"`. Unknown keys and placeholders are refused when
   * the configuration is resolved. (Tessera addition.)
   */
  messages?: Record<string, Partial<Record<MessageKey, string>>>
}

/**
 * Attributes of a cookie (`httpOnly`, `sameSite`, `path`, `secure`, `maxAge`, ...).
 *
 * @see [RFC 6265 §4.1, Set-Cookie](https://www.rfc-editor.org/rfc/rfc6265.html#section-4.1)
 */
export interface CookieSerializeOptions {
  /** Seconds until the cookie expires (`Max-Age`); 0 deletes it. */
  maxAge?: number
  /** When the cookie expires (`Expires`), for clients that ignore `Max-Age`. */
  expires?: Date
  /** Hosts the cookie is sent to besides the one that set it (`Domain`). */
  domain?: string
  path?: string
  /** Hidden from page scripts (`HttpOnly`). */
  httpOnly?: boolean
  /** Sent over https only (`Secure`). */
  secure?: boolean
  /** Stored per top-level site (`Partitioned`, CHIPS). */
  partitioned?: boolean
  priority?: "low" | "medium" | "high"
  /** Sent with cross-site requests or not (`SameSite`); `true` means `strict`. */
  sameSite?: boolean | "lax" | "strict" | "none"
  /** Encodes the value; default `encodeURIComponent`. */
  encode?: (value: string) => string
}

/**
 * A cookie's name and attributes.
 *
 * @see [RFC 6265 §4.1, Set-Cookie](https://www.rfc-editor.org/rfc/rfc6265.html#section-4.1)
 */
export interface CookieOption {
  name: string
  options: CookieSerializeOptions
}

/**
 * The cookies Tessera sets, by role; override any name or attribute with `cookies` in the
 * configuration.
 *
 * @see [Auth.js: CookiesOptions](https://authjs.dev/reference/core/types#cookiesoptions)
 * @see [RFC 6265bis §4.1.3, cookie name prefixes](https://datatracker.ietf.org/doc/html/draft-ietf-httpbis-rfc6265bis#section-4.1.3) (`__Host-`, `__Secure-`)
 */
export interface CookiesOptions {
  sessionToken: CookieOption
  callbackUrl: CookieOption
  csrfToken: CookieOption
  pkceCodeVerifier: CookieOption
  state: CookieOption
  nonce: CookieOption
  webauthnChallenge: CookieOption
  /**
   * The sign-in waiting for its second factor (Tessera addition; optional, so that an object
   * with Auth.js's seven cookies is a `CookiesOptions`: Tessera always fills it in).
   */
  twoFactor?: CookieOption
}

/**
 * A cookie to set (or clear, with `maxAge: 0`) on the response.
 *
 * @see [RFC 6265 §4.1, Set-Cookie](https://www.rfc-editor.org/rfc/rfc6265.html#section-4.1)
 */
export interface Cookie extends CookieOption {
  value: string
}

/**
 * What `logger.warn` receives: a risky setting (`debug-enabled`, `csrf-disabled`,
 * `insecure-issuer`, `rate-limit-codes-unguarded`, `rate-limit-store-not-atomic`), an `AUTH_URL` that disagrees with `basePath`, or, once per configuration,
 * a session whose record the adapter refused, which cannot be listed or revoked
 * (`session-records-unstored-user`), or a request a per-IP limit found no client address on
 * (`rate-limit-client-address-missing`); and a provider's token refresh whose ID Token was
 * refused (`refresh-id-token-refused`).
 *
 * @see {@link LoggerInstance}
 */
export type WarningCode =
  | "debug-enabled"
  | "csrf-disabled"
  | "env-url-basepath-redundant"
  | "env-url-basepath-mismatch"
  | "insecure-issuer"
  | "trust-host-unbounded"
  | "oauth-checks-none"
  | "recent-sign-in-unenforced"
  | "session-records-unstored-user"
  | "rate-limit-codes-unguarded"
  | "rate-limit-store-not-atomic"
  | "rate-limit-client-address-missing"
  | "refresh-id-token-refused"

/**
 * Where Tessera logs: `error` for server faults, `warn` for risky settings, `debug` (with
 * `debug: true`) for refusals a client caused. Secrets and raw tokens are never logged.
 *
 * @see [Auth.js: LoggerInstance](https://authjs.dev/reference/core/types#loggerinstance)
 */
export interface LoggerInstance {
  debug(message: string, metadata?: unknown): void
  error(error: Error): void
  warn(code: WarningCode): void
}

/**
 * Callbacks that decide a sign-in, a redirect, the JWT and the session.
 *
 * @see [Auth.js: CallbacksOptions](https://authjs.dev/reference/core/types#callbacksoptions)
 */
export interface CallbacksOptions<P = Profile, A = Account> {
  /** Return `false` to deny (AccessDenied), a string to redirect there, `true` to go on. */
  signIn(params: {
    user: User | AdapterUser
    account: A | null
    profile?: P
    email?: { verificationRequest?: boolean }
    credentials?: Record<string, unknown>
  }): Awaitable<boolean | string>
  /** Decides where a callback URL may send the user. The default allows the app's own origin only. */
  redirect(params: { url: string; baseUrl: string }): Awaitable<string>
  /**
   * Shapes what the session action and `auth()` return. `session` is typed as in Auth.js
   * (its `user` always there), so its guides' `session.user.id = token.id` compiles; with
   * JWT sessions it holds `user` and `expires` only, with database sessions the stored one.
   */
  session(params: {
    session: { user: AdapterUser } & AdapterSession & Session
    token: JWT
    user: AdapterUser
    newSession?: any
    trigger?: "update"
  }): Awaitable<Session | DefaultSession>
  /** Shapes the JWT stored in the session cookie. Returning `null` ends the session. */
  jwt(params: {
    token: JWT
    user: User | AdapterUser
    account: A | null
    profile?: P
    trigger?: "signIn" | "signUp" | "update"
    isNewUser?: boolean
    session?: any
  }): Awaitable<JWT | null>
}

/**
 * Notifications, fired after the fact; a handler that throws is logged, never breaks the flow.
 *
 * @see [Auth.js: EventCallbacks](https://authjs.dev/reference/core/types#eventcallbacks)
 */
export interface EventCallbacks {
  signIn(message: {
    user: User
    account: Account | null
    profile?: Profile
    isNewUser?: boolean
  }): Awaitable<void>
  signOut(
    message: { session: AdapterSessionLike | null | undefined | void } | { token: JWT | null },
  ): Awaitable<void>
  createUser(message: { user: User }): Awaitable<void>
  updateUser(message: { user: User }): Awaitable<void>
  linkAccount(message: {
    user: User | AdapterUser
    account: Account
    profile: User | AdapterUser
  }): Awaitable<void>
  session(message: { session: Session; token: JWT }): Awaitable<void>
  /**
   * A session was ended by someone other than its browser signing out: the
   * user revoked it (or signed out everywhere), your server code did
   * (`revokeSession`, `revokeUserSessions`), the OpenID provider did
   * (back-channel logout), or an unproven e-mail address was taken off its
   * account. Once per session. (Tessera addition.)
   */
  sessionRevoked(message: { session: SessionRecord; reason: SessionRevokedReason }): Awaitable<void>
}

/**
 * Why a session was revoked: `"user"` (from the sessions list, or `signout` with
 * `scope`), `"server"` (`revokeSession`/`revokeUserSessions`), `"backchannel-logout"`,
 * `"email-claim-released"`.
 *
 * @see {@link EventCallbacks}
 */
export type SessionRevokedReason = "user" | "server" | "backchannel-logout" | "email-claim-released"

/**
 * A session as server code sees it (`listSessions`, the `sessionRevoked` event):
 * its record without the provider-side ids. (Tessera addition.)
 *
 * @see {@link AdapterSessionRecord}
 */
export interface SessionRecord extends Omit<
  AdapterSessionRecord,
  "providerAccountId" | "providerSessionId"
> {}

/**
 * One entry of `GET <basePath>/sessions`: a live session of the signed-in user,
 * dates as ISO 8601 strings. (Tessera addition.)
 *
 * @see {@link SessionRecord}
 */
export interface SessionListEntry {
  id: string
  /** True for the session of the request. */
  current: boolean
  createdAt: string
  lastSeenAt: string
  expires: string
  userAgent: string | null
}

/**
 * The stored session passed to `events.signOut` with database sessions.
 *
 * @see {@link AdapterSession}
 */
export interface AdapterSessionLike {
  sessionToken: string
  userId: string
  expires: Date
}

/**
 * `jwt`: an encrypted cookie holds the session; `database`: the cookie holds a token, the adapter
 * the session.
 *
 * @see [Auth.js: SessionStrategy](https://authjs.dev/reference/core/types#sessionstrategy)
 */
export type SessionStrategy = "jwt" | "database"

/**
 * How sessions are kept and how long they last.
 *
 * @see [Auth.js: SessionOptions](https://authjs.dev/reference/core/types#sessionoptions)
 */
export interface SessionOptions {
  // Tessera's additions are optional, so that an object with Auth.js's four options is a
  // `SessionOptions`; a resolved configuration has them all (`ResolvedSessionOptions`).
  /** `"database"` when an adapter is set, otherwise `"jwt"`. */
  strategy: SessionStrategy
  /** Seconds until an idle session expires. Default 30 days. */
  maxAge: number
  /** Seconds between writes that extend the session. Default 24 hours. */
  updateAge: number
  /**
   * Seconds after the sign-in when the session ends however active it is: the
   * sliding expiry never goes past it. Default 30 days, or `maxAge` if longer.
   * (Tessera addition; JWT sessions carry the sign-in time as `auth_time`.)
   */
  absoluteMaxAge?: number
  /**
   * Seconds a JWT session trusts its record without asking the adapter again:
   * a revoked or expired session stops working within this time. Default 60;
   * 0 asks on every check. Only with an adapter that keeps session records.
   * (Tessera addition.)
   */
  revalidateAge?: number
  /**
   * Seconds after the sign-in during which the session may add a sign-in
   * method or set up a second factor (a passkey for the signed-in user, a
   * TOTP key); later it must sign in again (403 `RecentSignInRequired`), so
   * a copied session cookie cannot become lasting access. Default 600 (10
   * minutes); `Infinity` turns the check off. Database sessions know their
   * sign-in time only with an adapter that keeps session records: without
   * one the default is `Infinity` (with the warning
   * `recent-sign-in-unenforced`), and a number set here refuses them all.
   * (Tessera addition: Auth.js has no such check.)
   */
  recentSignInAge?: number
  /** Generates database session tokens. Default: 32 random bytes, hex. */
  generateSessionToken: () => string
}

/**
 * The internal result of an action, returned as is in `raw` mode.
 *
 * @see {@link raw}
 */
export interface ResponseInternal<Body extends string | Record<string, any> | any[] | null = any> {
  status?: number
  headers?: Headers | HeadersInit
  body?: Body
  redirect?: string
  cookies?: Cookie[]
}

/**
 * The parsed request an action works on.
 *
 * @see {@link ResponseInternal}
 */
export interface RequestInternal {
  url: URL
  method: "GET" | "POST"
  cookies: Record<string, string>
  headers: Headers
  query: Record<string, string>
  body: Record<string, any> | undefined
  action: AuthAction
  providerId?: string
  error?: string
}

/**
 * A provider as listed by the `providers` action: safe to send to browsers.
 *
 * @see [Auth.js: PublicProvider](https://authjs.dev/reference/core/types#publicprovider)
 */
export interface PublicProvider {
  id: string
  name: string
  type: string
  signinUrl: string
  callbackUrl: string
}

/**
 * A configured provider as the pages and actions see it.
 *
 * @see {@link PublicProvider}
 */
export interface AppProvider extends PublicProvider {
  type: ProviderType
}

export type { Adapter, AdapterSessionRecord, AdapterUser, JWTOptions, Provider }
