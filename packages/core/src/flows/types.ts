/**
 * The contract every sign-in flow implements, and the resolved providers they
 * work on.
 *
 * A flow is everything a provider type needs: checking and completing its
 * configuration once (`normalize`), starting a sign-in (`signIn`), finishing it
 * (`callback`, with the methods it answers and whether the CSRF token is
 * required), its part of the built-in sign-in page, and how a sign-in through
 * it is stored (`persist`). `flows/index.ts` maps each provider type to its
 * flow; the route table only ever talks to a flow bound to one provider
 * ({@link ProviderFlow}), so no code outside a flow switches on provider types.
 * @module
 */
import type { Adapter, AdapterUser } from "../adapters.js"
import type { RequestContext } from "../context.js"
import type { SafeHtml } from "../pages/html.js"
import type { Translator } from "../pages/i18n/localization.js"
import type { CredentialsConfig } from "../providers/credentials.js"
import type { EmailConfig } from "../providers/email.js"
import type { KeyRing } from "../jwt/keys.js"
import type { OAuthConfigInternal } from "../providers/oauth.js"
import type { WebAuthnConfig } from "../providers/webauthn.js"
import type {
  Account,
  LoggerInstance,
  Profile,
  ProviderType,
  ResponseInternal,
  User,
  WarningCode,
} from "../types.js"

/** An OAuth 2.0 or OpenID Connect provider, endpoints as objects, defaults filled in. */
export type ResolvedOAuthProvider = OAuthConfigInternal<any>

/** An e-mail provider with its defaults filled in. */
export type ResolvedEmailProvider = EmailConfig & {
  maxAge: number
  sendTimeout: number
  method: "link" | "code" | "both"
  confirmLink: boolean
  normalizeIdentifier: (identifier: string) => string
  generateVerificationToken: () => string | PromiseLike<string>
  /** The keys of the provider's own `secret`, when it has one (tokens are hashed with it). */
  keys?: KeyRing
}

export type ResolvedCredentialsProvider = CredentialsConfig<any>

/** The relying-party overrides after checking: origins as a list of exact origins. */
export interface ConfiguredRelyingParty {
  id?: string
  name?: string
  origin?: string[]
}

export type ResolvedWebAuthnProvider = WebAuthnConfig & {
  relayingParty: ConfiguredRelyingParty
  enableConditionalUI: boolean
  challengeMaxAge: number
  formFields: NonNullable<WebAuthnConfig["formFields"]>
}

/** A configured provider after resolution: one union that narrows on `type`. */
export type ResolvedProvider =
  | ResolvedOAuthProvider
  | ResolvedEmailProvider
  | ResolvedCredentialsProvider
  | ResolvedWebAuthnProvider

/** What a provider's normalizer may consult: the rest of the configuration, already validated. */
export interface ProviderResolutionContext {
  readonly adapter: Adapter | undefined
  readonly logger: LoggerInstance
  /** Says a warning about the provider `provider` (once per process per provider). */
  readonly warnAbout: (code: WarningCode, provider: string) => void
  readonly redirectProxyUrl: string | undefined
  readonly sessionStrategy: "jwt" | "database"
  /** The WebAuthn provider that turned conditional UI on, if one did: only one may. */
  conditionalUIOwner?: string
}

/** Who a provider says the user is, before the database has a say. */
export interface ProviderIdentity {
  /** The user as the provider describes them (profile callback, authorize, e-mail address). */
  user: User
  account: Account
  profile?: Profile
}

/** The user who signs in once the sign-in is stored, and whether they were just created. */
export interface SignInUser {
  user: User | AdapterUser
  isNewUser: boolean
}

/** Stores a sign-in: users, accounts, authenticators. Runs after the `signIn` callback agreed. */
export type Persist<I extends ProviderIdentity = ProviderIdentity> = (
  ctx: RequestContext,
  identity: I,
) => Promise<SignInUser>

/** What the built-in sign-in page passes to each provider's section. */
export interface SignInPageParams {
  csrfToken: string
  callbackUrl: string
  error?: string
  /** A detail of `error` (`CredentialsSignin`'s code, an OAuth provider's `access_denied`). */
  code?: string
  email?: string
  /** The page's CSP nonce, for a section's own `<style>`. */
  nonce: string
  /** The request's strings (locale negotiated or configured). */
  t: Translator
  /**
   * Set when an e-mail provider and a passkey provider share one e-mail field:
   * the id the e-mail section gives its form, and the form the passkey button joins.
   */
  emailForm?: string
}

export type Method = "GET" | "POST"

/** The callback of a flow: the methods it answers, whether CSRF applies, and the handler. */
export interface FlowCallback<P extends ResolvedProvider> {
  readonly methods: readonly Method[]
  /**
   * True when the callback is a same-site form post that must echo the CSRF
   * token (credentials, passkeys). False where another check ties the callback
   * to the browser: OAuth state/PKCE/nonce cookies, e-mail single-use tokens.
   * A function decides per request (e-mail: a posted one-time code needs it,
   * a followed link does not).
   */
  readonly csrf: boolean | ((ctx: RequestContext) => boolean)
  handle(ctx: RequestContext, provider: P): Promise<ResponseInternal>
}

export interface Flow<P extends ResolvedProvider, I extends ProviderIdentity = ProviderIdentity> {
  /** Checks a provider of this type once, when the configuration is resolved, and fills its defaults. */
  normalize(provider: any, context: ProviderResolutionContext): P
  /** POST signin/<id>: starts a sign-in (CSRF already checked). */
  signIn(ctx: RequestContext, provider: P): Promise<ResponseInternal>
  readonly callback: FlowCallback<P>
  /** The provider's part of the built-in sign-in page. */
  section(ctx: RequestContext, provider: P, params: SignInPageParams): SafeHtml
  /** Markup for the page's head (a script, with the page's CSP `nonce`), once per page, when a provider of this type is shown. */
  head?(ctx: RequestContext, nonce: string): SafeHtml
  /** How a sign-in through this flow is stored. */
  persist: Persist<I>
  /** GET webauthn-options/<id>: only flows that prepare a browser ceremony have it. */
  options?(ctx: RequestContext, provider: P): Promise<ResponseInternal>
  /**
   * Where a failure of this flow's requests lands, when not on the sign-in or
   * error page: a URL on `ctx.origin` carrying `error=<value>`, or `undefined`
   * for the usual pages. (A mistyped code goes back to the code form.)
   */
  failurePage?(ctx: RequestContext, provider: P, error: unknown, value: string): string | undefined
  /** Answering the second step of a pending sign-in (`callback/two-factor`): passkeys only. */
  secondFactor?: SecondFactorFlow<P>
}

/**
 * What a second factor is checked against: the pending sign-in's user and
 * `jti`, and the first factor's account (a passkey's: its credential id, which
 * cannot answer again).
 */
export interface SecondFactorPending {
  sub: string
  jti: string
  account?: { type: string; providerAccountId: string } | null
}

/**
 * A flow whose proof can stand in for the second-factor code (a passkey of the
 * pending user). Reached through the configuration's flows, so an app without
 * such a provider bundles none of it.
 */
export interface SecondFactorFlow<P extends ResolvedProvider> {
  /** Whether the pending user can answer through `provider` (has a passkey with it). */
  available(ctx: RequestContext, provider: P, pending: SecondFactorPending): Promise<boolean>
  /** The two-factor page's button for `provider`; `page` is the page's own URL. */
  button(ctx: RequestContext, provider: P, t: Translator, page: string): SafeHtml
  /** Checks the answer posted to `callback/two-factor` for the pending sign-in; throws when refused. */
  verify(ctx: RequestContext, provider: P, pending: SecondFactorPending): Promise<unknown>
}

/**
 * The second-factor step's pseudo-provider (`callback/two-factor`): not in
 * `providers`, never on the sign-in page.
 */
export interface TwoFactorProvider {
  readonly id: "two-factor"
  readonly type: "two-factor"
  readonly name: string
}

/** A flow bound to one provider: what routes and pages call. */
export interface ProviderFlow {
  readonly provider: ResolvedProvider | TwoFactorProvider
  readonly type: ProviderType | "two-factor"
  signIn(ctx: RequestContext): Promise<ResponseInternal>
  readonly callback: {
    readonly methods: readonly Method[]
    readonly csrf: boolean | ((ctx: RequestContext) => boolean)
    handle(ctx: RequestContext): Promise<ResponseInternal>
  }
  section(ctx: RequestContext, params: SignInPageParams): SafeHtml
  head?(ctx: RequestContext, nonce: string): SafeHtml
  options?(ctx: RequestContext): Promise<ResponseInternal>
  failurePage?(ctx: RequestContext, error: unknown, value: string): string | undefined
  readonly secondFactor?: {
    available(ctx: RequestContext, pending: SecondFactorPending): Promise<boolean>
    button(ctx: RequestContext, t: Translator, page: string): SafeHtml
    verify(ctx: RequestContext, pending: SecondFactorPending): Promise<unknown>
  }
}

/** Binds `flow` to `provider`, so callers need not know the provider's type. */
export function bindFlow<P extends ResolvedProvider>(
  flow: Flow<P, any>,
  provider: P,
): ProviderFlow {
  const { options, head, failurePage, secondFactor } = flow
  return {
    provider,
    type: provider.type,
    signIn: (ctx) => flow.signIn(ctx, provider),
    callback: {
      methods: flow.callback.methods,
      csrf: flow.callback.csrf,
      handle: (ctx) => flow.callback.handle(ctx, provider),
    },
    section: (ctx, params) => flow.section(ctx, provider, params),
    // The same function for every provider of the type: the page includes it once.
    ...(head ? { head } : {}),
    ...(options ? { options: (ctx: RequestContext) => options(ctx, provider) } : {}),
    ...(failurePage
      ? {
          failurePage: (ctx: RequestContext, error: unknown, value: string) =>
            failurePage(ctx, provider, error, value),
        }
      : {}),
    ...(secondFactor
      ? {
          secondFactor: {
            available: (ctx: RequestContext, pending: SecondFactorPending) =>
              secondFactor.available(ctx, provider, pending),
            button: (ctx: RequestContext, t: Translator, page: string) =>
              secondFactor.button(ctx, provider, t, page),
            verify: (ctx: RequestContext, pending: SecondFactorPending) =>
              secondFactor.verify(ctx, provider, pending),
          },
        }
      : {}),
  }
}
