/**
 * Browser-side sign-in and sign-out (`@tessera/sveltekit/client`).
 *
 * Each call fetches a CSRF token from `<basePath>/csrf`, posts to the matching
 * auth action asking for the redirect as JSON (`X-Auth-Return-Redirect: 1`) and
 * then follows it, or, with `redirect: false`, returns the outcome instead.
 *
 * Failures are results, never exceptions: a sign-in the server refused, a server
 * that could not be reached, a passkey dialog the user cancelled all resolve to
 * `{ ok: false, error }` (see {@link SignInResult}), so a page shows a message
 * instead of an unhandled rejection.
 *
 * @example
 * ```svelte
 * <script>
 *   import { signIn, signOut } from "@tessera/sveltekit/client"
 * </script>
 * <button on:click={() => signIn("github")}>Sign in with GitHub</button>
 * <button on:click={() => signIn("credentials", { username, password, redirectTo: "/dashboard" })}>Sign in</button>
 * <button on:click={() => signIn("passkey", { action: "register" })}>Add a passkey</button>
 * <button on:click={() => signIn("two-factor", { code })}>Verify</button>
 * <button on:click={() => signOut()}>Sign out</button>
 * <button on:click={() => signOut({ scope: "others" })}>Sign out on every other device</button>
 * ```
 *
 * With session records (an adapter), the signed-in user's sessions:
 * `listSessions()` and `revokeSession(id)` (the `sessions` routes).
 * @module
 */
import type { PublicProvider, SessionListEntry } from "@tessera/core/types"

/** The second step of a sign-in for users with a second factor: `signIn("two-factor", { code })`. */
const TWO_FACTOR_ID = "two-factor"

/**
 * Where the auth actions are mounted when no `basePath` is given: under the app's `paths.base`,
 * where the server's hook puts them by default (as Auth.js's client and hook do).
 */
let defaultBasePath: Promise<string> | undefined

/**
 * `<paths.base>/auth`, with `$app/paths` read on first use rather than imported at the top: this
 * module then also loads outside a SvelteKit build (a plain test runner, another bundler), where
 * the base is `""`.
 */
function kitDefaultBasePath(): Promise<string> {
  defaultBasePath ??= import("$app/paths").then(
    (paths: { base?: string }) => `${paths.base ?? ""}/auth`,
    () => "/auth",
  )
  return defaultBasePath
}

/**
 * Options of the client `signIn`.
 *
 * @see [Auth.js: @auth/sveltekit/client](https://authjs.dev/reference/sveltekit/client)
 */
export interface SignInParams {
  /** Where to go after signing in. Default: `callbackUrl`, else the current page. */
  redirectTo?: string
  /** @deprecated Auth.js' older name of `redirectTo` (which wins when both are given). */
  callbackUrl?: string
  /**
   * `false`: do not navigate, resolve to a {@link SignInResult} (credentials,
   * e-mail and passkey sign-ins; OAuth always navigates to the provider). Default `true`.
   */
  redirect?: boolean
  /** The server's `basePath`. Default `/auth`. */
  basePath?: string
  /** Passkeys: `"register"` a new passkey or `"authenticate"` with one. Default: the server decides. */
  action?: "register" | "authenticate"
  /** Every other field is posted as is: `username`, `password`, `email`, ... */
  [field: string]: unknown
}

/**
 * What the client `signIn` resolves to: failures are results, not exceptions.
 *
 * @see [Auth.js: @auth/sveltekit/client](https://authjs.dev/reference/sveltekit/client)
 */
export interface SignInResult {
  /**
   * True when the sign-in succeeded. A refused sign-in is `false` (Auth.js's client says `true`
   * there, the answer being a 200 that names the error).
   */
  ok: boolean
  /** HTTP status of the sign-in request; 0 when no answer came (network, passkey dialog). */
  status: number
  /**
   * What went wrong, if anything: the `error` the server answered (`CredentialsSignin`,
   * `AccessDenied`, ...) or, for failures in the browser, one of
   * - `ClientFetchError`: the server could not be reached, or did not answer as the auth routes do;
   * - `MissingCSRF`: no CSRF token could be had from `<basePath>/csrf`;
   * - `PasskeyCancelled`: the browser's passkey dialog was cancelled or timed out;
   * - `PasskeyError`: the browser could not use a passkey here (no authenticator, not a secure context, ...);
   * - `InvalidCallbackUrl`: the place to go afterwards is not an http(s) URL.
   */
  error: string | undefined
  /** The `code` that came with a `CredentialsSignin` error. */
  code: string | undefined
  /** Where the server would have sent the browser; `null` on error. */
  url: string | null
}

/**
 * Options of the client `signOut`.
 *
 * @see [Auth.js: @auth/sveltekit/client](https://authjs.dev/reference/sveltekit/client)
 */
export interface SignOutParams {
  /** Where to go after signing out. Default: `callbackUrl`, else the current page (as Auth.js's). */
  redirectTo?: string
  /** @deprecated Auth.js' older name of `redirectTo` (which wins when both are given). */
  callbackUrl?: string
  /**
   * Tessera extension (needs session records: an adapter). `"all"`: end every session of the
   * user, this one included; `"others"`: every one but this (the user stays signed in here).
   * Default: this session only.
   */
  scope?: "all" | "others"
  /** `false`: do not navigate, resolve to a {@link SignOutResult}. Default `true`. */
  redirect?: boolean
  /** The server's `basePath`. Default `<paths.base>/auth`. */
  basePath?: string
}

/**
 * What the client `signOut` resolves to: failures are results, not exceptions.
 *
 * @see [Auth.js: @auth/sveltekit/client](https://authjs.dev/reference/sveltekit/client)
 */
export interface SignOutResult {
  /** True when the session was ended. */
  ok: boolean
  /** HTTP status of the sign-out request; 0 when no answer came. */
  status: number
  /** As {@link SignInResult.error}: `ClientFetchError`, `MissingCSRF`, `InvalidCallbackUrl`, ... */
  error: string | undefined
  /** Where the server sends the browser (Auth.js's `{ url }`); `null` on error. */
  url: string | null
}

/**
 * Extra parameters for an OAuth/OIDC authorization request (the third argument of `signIn`).
 * @see [Auth.js: SignInAuthorizationParams](https://authjs.dev/reference/sveltekit/client)
 */
export type SignInAuthorizationParams =
  string | string[][] | Record<string, string> | URLSearchParams

/**
 * Auth.js's names for the types above, so an app's type imports move over unchanged.
 * `SignInOptions<false>` is the same type: the result is one shape either way.
 * @see [Auth.js: @auth/sveltekit/client](https://authjs.dev/reference/sveltekit/client)
 */
export type SignInOptions<_Redirect extends boolean = true> = SignInParams
/**
 * Auth.js's name of {@link SignInResult}: `{ ok, status, error, code, url }`, as there.
 *
 * @see [Auth.js: @auth/sveltekit/client](https://authjs.dev/reference/sveltekit/client)
 */
export type SignInResponse = SignInResult
/**
 * Auth.js's name of {@link SignOutResult}.
 *
 * @see [Auth.js: @auth/sveltekit/client](https://authjs.dev/reference/sveltekit/client)
 */
export type SignOutResponse = SignOutResult

/** Fields the client adds itself; never posted from `params`. */
const RESERVED = new Set(["redirectTo", "callbackUrl", "redirect", "basePath", "action"])

/**
 * A failure the client itself found: no answer, no CSRF token, a cancelled passkey dialog.
 * Thrown inside this module only; `signIn` and `signOut` return it as a result.
 */
class ClientFailure extends Error {
  constructor(
    readonly error: string,
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

function failed(failure: ClientFailure): SignInResult & SignOutResult {
  return { ok: false, status: failure.status, error: failure.error, code: undefined, url: null }
}

/**
 * Starts a sign-in. Without a provider id (or with one the server does not
 * know), opens the sign-in page. Credentials pass their fields in `params`;
 * `authorizationParams` are added to an OAuth/OIDC authorization request.
 * Resolves to a {@link SignInResult} with `redirect: false`, and whenever the
 * sign-in failed with nowhere to go; never rejects for a failed sign-in.
 *
 * @param providerId The provider to sign in with; none shows the sign-in page.
 * @param params Where to go afterwards, `redirect`, and the provider's fields (credentials,
 *   `email`).
 * @param authorizationParams Extra parameters of an OAuth/OIDC authorization request.
 * @see [Auth.js: @auth/sveltekit/client](https://authjs.dev/reference/sveltekit/client) (`signIn`)
 */
export function signIn(
  providerId: string | undefined,
  params: SignInParams & { redirect: false },
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResult>
export function signIn(
  providerId?: string,
  params?: SignInParams,
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResult | undefined>
// The overloads say what Auth.js's say: with `redirect: false` there is always a result.
export async function signIn(
  providerId?: string,
  params: SignInParams = {},
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResult | undefined> {
  try {
    return await startSignIn(providerId, params, authorizationParams)
  } catch (error) {
    if (error instanceof ClientFailure) return failed(error)
    throw error
  }
}

async function startSignIn(
  providerId: string | undefined,
  params: SignInParams,
  authorizationParams: SignInAuthorizationParams | undefined,
): Promise<SignInResult | undefined> {
  const basePath = await trimBasePath(params.basePath)
  const callbackUrl = params.redirectTo ?? params.callbackUrl ?? window.location.href
  const signInPage = `${basePath}/signin?${new URLSearchParams({ callbackUrl })}`
  if (!providerId) {
    navigate(signInPage)
    return undefined
  }
  const [providers, csrfToken] = await Promise.all([
    providerId === TWO_FACTOR_ID ? null : getProviders({ basePath }),
    getCsrfToken({ basePath }),
  ])
  if (providerId === TWO_FACTOR_ID) {
    // The second step: `code` finishes the sign-in the first factor started.
    const response = await post(`${basePath}/callback/${TWO_FACTOR_ID}`, {
      ...postedFields(params),
      csrfToken,
      callbackUrl,
    })
    return outcome(response, callbackUrl, params.redirect === false)
  }
  if (!providers)
    throw new ClientFailure("ClientFetchError", 0, "The server did not list its providers")
  const provider = providers[providerId]
  if (!provider) {
    navigate(signInPage)
    return undefined
  }
  const fields = postedFields(params)
  if (provider.type === "webauthn")
    return passkey(provider, params, fields, { basePath, callbackUrl, csrfToken })

  const action = provider.type === "credentials" ? "callback" : "signin"
  const query = authorizationParams ? `?${new URLSearchParams(authorizationParams)}` : ""
  const response = await post(`${basePath}/${action}/${encodeURIComponent(provider.id)}${query}`, {
    ...fields,
    csrfToken,
    callbackUrl,
  })
  const canReturn = provider.type === "credentials" || provider.type === "email"
  return outcome(response, callbackUrl, params.redirect === false && canReturn)
}

/**
 * Ends the session, then goes where the server answers: `redirectTo` (else `callbackUrl`, else
 * the current page) through the `redirect` callback, as Auth.js's client. Resolves to a
 * {@link SignOutResult} with `redirect: false`, and when signing out failed (Auth.js's client
 * navigates to `redirectTo` then: the user would think they were signed out).
 *
 * @param params Where to go afterwards, `redirect`, and `scope` (`"others"` or `"all"`).
 * @see [Auth.js: @auth/sveltekit/client](https://authjs.dev/reference/sveltekit/client) (`signOut`)
 */
export function signOut(params: SignOutParams & { redirect: false }): Promise<SignOutResult>
export function signOut(params?: SignOutParams): Promise<SignOutResult | undefined>
export async function signOut(params: SignOutParams = {}): Promise<SignOutResult | undefined> {
  const basePath = await trimBasePath(params.basePath)
  const callbackUrl = params.redirectTo ?? params.callbackUrl ?? window.location.href
  try {
    const csrfToken = await getCsrfToken({ basePath })
    const fields: Record<string, string> = { csrfToken, callbackUrl }
    if (params.scope) fields.scope = params.scope
    const response = await post(`${basePath}/signout`, fields)
    const data = await json<{ url?: string; error?: string }>(response)
    if (!response.ok) {
      const error = typeof data?.error === "string" ? data.error : "ClientFetchError"
      return { ok: false, status: response.status, error, url: null }
    }
    const url = typeof data?.url === "string" ? data.url : callbackUrl
    if (params.redirect === false)
      return { ok: true, status: response.status, error: undefined, url }
    navigate(url)
    return undefined
  } catch (error) {
    if (error instanceof ClientFailure) return failed(error)
    throw error
  }
}

/**
 * What {@link listSessions} resolves to.
 *
 * @see [docs/sessions.md: managing sessions](https://github.com/tessera-auth/tessera/blob/main/docs/sessions.md#managing-sessions-see-them-end-them)
 */
export interface ListSessionsResult {
  ok: boolean
  /** HTTP status of the request; 0 when no answer came. */
  status: number
  /**
   * `undefined` on success; else `SessionRequired` (nobody is signed in), `MissingAdapter` (the
   * server keeps no session records), `ClientFetchError`, ...
   */
  error: string | undefined
  /** The signed-in user's live sessions, newest first (`current` marks this one); `[]` on error. */
  sessions: SessionListEntry[]
}

/**
 * What {@link revokeSession} resolves to.
 *
 * @see [docs/sessions.md: managing sessions](https://github.com/tessera-auth/tessera/blob/main/docs/sessions.md#managing-sessions-see-them-end-them)
 */
export interface RevokeSessionResult {
  ok: boolean
  status: number
  /** `undefined` on success; else `NotFound` (no session of yours has this id), `SessionRequired`, `MissingCSRF`, ... */
  error: string | undefined
  /** True when the session ended was this browser's own: it is signed out now. */
  current: boolean
}

/**
 * The signed-in user's sessions (`GET <basePath>/sessions`): one per device or browser
 * they signed in on. Needs session records on the server (an adapter). Never rejects for
 * a refusal: see {@link ListSessionsResult}.
 *
 * @param options `basePath`, when the auth routes are not at `/auth`.
 * @see [docs/sessions.md: managing sessions](https://github.com/tessera-auth/tessera/blob/main/docs/sessions.md#managing-sessions-see-them-end-them)
 */
export async function listSessions(
  options: { basePath?: string } = {},
): Promise<ListSessionsResult> {
  try {
    const response = await request(`${await trimBasePath(options.basePath)}/sessions`, {
      headers: { accept: "application/json" },
    })
    const data = await json<unknown>(response)
    if (response.ok && Array.isArray(data))
      return { ok: true, status: response.status, error: undefined, sessions: data }
    return { ok: false, status: response.status, error: errorOf(data), sessions: [] }
  } catch (error) {
    if (error instanceof ClientFailure)
      return { ok: false, status: error.status, error: error.error, sessions: [] }
    throw error
  }
}

/**
 * Ends one of the signed-in user's sessions, by the `id` {@link listSessions} gave
 * (`POST <basePath>/sessions/revoke`). Ending this browser's own session signs it out
 * (`current: true`); reload or navigate to show that. Never rejects for a refusal.
 *
 * @param id The session's id, from `listSessions`.
 * @param options `basePath`, when the auth routes are not at `/auth`.
 * @see [docs/sessions.md: managing sessions](https://github.com/tessera-auth/tessera/blob/main/docs/sessions.md#managing-sessions-see-them-end-them)
 */
export async function revokeSession(
  id: string,
  options: { basePath?: string } = {},
): Promise<RevokeSessionResult> {
  const basePath = await trimBasePath(options.basePath)
  try {
    const csrfToken = await getCsrfToken({ basePath })
    const response = await post(`${basePath}/sessions/revoke`, { id, csrfToken })
    const data = await json<{ current?: unknown }>(response)
    if (response.ok)
      return {
        ok: true,
        status: response.status,
        error: undefined,
        current: data?.current === true,
      }
    return { ok: false, status: response.status, error: errorOf(data), current: false }
  } catch (error) {
    if (error instanceof ClientFailure)
      return { ok: false, status: error.status, error: error.error, current: false }
    throw error
  }
}

/** The `error` of a JSON refusal, or `ClientFetchError` when the answer was not one. */
function errorOf(data: unknown): string {
  const error = (data as { error?: unknown } | null)?.error
  return typeof error === "string" ? error : "ClientFetchError"
}

/**
 * The CSRF token the state-changing actions need (also sets its cookie). Rejects when
 * there is none to have; `signIn` and `signOut` report that as `MissingCSRF`.
 *
 * @param options `basePath`, when the auth routes are not at `/auth`.
 * @see [Auth.js: getCsrfToken](https://authjs.dev/reference/nextjs/react#getcsrftoken)
 */
export async function getCsrfToken(options: { basePath?: string } = {}): Promise<string> {
  const response = await request(`${await trimBasePath(options.basePath)}/csrf`, {
    headers: { accept: "application/json" },
  })
  const data = await json<{ csrfToken?: string }>(response)
  if (!response.ok || typeof data?.csrfToken !== "string") {
    throw new ClientFailure(
      "MissingCSRF",
      response.status,
      `Could not get a CSRF token (HTTP ${response.status})`,
    )
  }
  return data.csrfToken
}

/**
 * The configured providers, by id, or `null` when the server did not answer.
 *
 * @param options `basePath`, when the auth routes are not at `/auth`.
 * @see [Auth.js: getProviders](https://authjs.dev/reference/nextjs/react#getproviders)
 */
export async function getProviders(
  options: { basePath?: string } = {},
): Promise<Record<string, PublicProvider> | null> {
  try {
    const response = await request(`${await trimBasePath(options.basePath)}/providers`, {
      headers: { accept: "application/json" },
    })
    return response.ok ? await json<Record<string, PublicProvider>>(response) : null
  } catch (error) {
    if (error instanceof ClientFailure) return null
    throw error
  }
}

/**
 * Passkeys: ask the server for options, let the browser create or use a
 * credential (@simplewebauthn/browser, loaded only here), post the result.
 */
async function passkey(
  provider: PublicProvider,
  params: SignInParams,
  fields: Record<string, string>,
  {
    basePath,
    callbackUrl,
    csrfToken,
  }: { basePath: string; callbackUrl: string; csrfToken: string },
): Promise<SignInResult | undefined> {
  const { startAuthentication, startRegistration } = await import("@simplewebauthn/browser")
  const query = new URLSearchParams(fields)
  if (params.action) query.set("action", params.action)
  const id = encodeURIComponent(provider.id)
  const optionsResponse = await request(`${basePath}/webauthn-options/${id}?${query}`, {
    headers: { accept: "application/json" },
  })
  const answer = await json<{
    action?: "register" | "authenticate"
    options?: any
    message?: string
    error?: string
  }>(optionsResponse)
  if (
    !optionsResponse.ok ||
    !answer?.options ||
    (answer.action !== "register" && answer.action !== "authenticate")
  ) {
    throw new ClientFailure(
      typeof answer?.error === "string" ? answer.error : "ClientFetchError",
      optionsResponse.status,
      `Could not get passkey options (HTTP ${optionsResponse.status})`,
    )
  }
  let data: unknown
  try {
    data =
      answer.action === "register"
        ? await startRegistration({ optionsJSON: answer.options })
        : await startAuthentication({ optionsJSON: answer.options })
  } catch (error) {
    throw passkeyFailure(error)
  }
  const response = await post(`${basePath}/callback/${id}`, {
    ...fields,
    action: answer.action,
    data: JSON.stringify(data),
    csrfToken,
    callbackUrl,
  })
  return outcome(response, callbackUrl, params.redirect === false)
}

/**
 * Follows the server's answer, or describes it: when the caller asked for no navigation,
 * and when the server refused with nowhere to go (no URL to follow).
 */
async function outcome(
  response: Response,
  callbackUrl: string,
  returnResult: boolean,
): Promise<SignInResult | undefined> {
  const data = await json<{ url?: string; error?: string }>(response)
  const url = typeof data?.url === "string" ? data.url : null
  let error: string | undefined
  let code: string | undefined
  if (url) {
    const target = new URL(url, window.location.href)
    error = target.searchParams.get("error") ?? undefined
    code = target.searchParams.get("code") ?? undefined
  } else if (!response.ok) {
    error = typeof data?.error === "string" ? data.error : "Signin"
  }
  if (!returnResult && (url || response.ok)) {
    navigate(url ?? callbackUrl)
    return undefined
  }
  const ok = response.ok && !error
  return { ok, status: response.status, error, code, url: ok ? url : null }
}

/**
 * What a failed WebAuthn ceremony means for the user. The browser ends a dialog that was
 * cancelled or timed out with `NotAllowedError` (or `AbortError`); @simplewebauthn/browser
 * passes it on as the `cause` of its own `WebAuthnError` when it recognises it.
 */
function passkeyFailure(error: unknown): ClientFailure {
  const names = [error, (error as { cause?: unknown } | null)?.cause].map((e) =>
    e instanceof Error ? e.name : "",
  )
  const cancelled = names.some((name) => name === "NotAllowedError" || name === "AbortError")
  const message = error instanceof Error ? error.message : "The passkey dialog failed"
  return new ClientFailure(cancelled ? "PasskeyCancelled" : "PasskeyError", 0, message)
}

/** `fetch`, with a network failure as a {@link ClientFailure}. */
async function request(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init)
  } catch (error) {
    const message = error instanceof Error ? error.message : "fetch failed"
    throw new ClientFailure("ClientFetchError", 0, `The server could not be reached: ${message}`)
  }
}

function post(url: string, body: Record<string, string>): Promise<Response> {
  return request(url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
      "x-auth-return-redirect": "1",
    },
    body: new URLSearchParams(body),
  })
}

async function json<T>(response: Response): Promise<T | null> {
  try {
    return (await response.json()) as T
  } catch {
    return null
  }
}

function postedFields(params: SignInParams): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [key, value] of Object.entries(params)) {
    if (
      RESERVED.has(key) ||
      value === undefined ||
      value === null ||
      typeof value === "object" ||
      typeof value === "function"
    )
      continue
    fields[key] = String(value)
  }
  return fields
}

async function trimBasePath(basePath: string | undefined): Promise<string> {
  return (basePath ?? (await kitDefaultBasePath())).replace(/\/+$/, "")
}

/** Full navigation, so the server renders the next page with the new session. */
function navigate(url: string): void {
  const current = new URL(window.location.href)
  const target = new URL(url, current)
  // The server's URLs are checked there; a fallback (`redirectTo`, which an app
  // may take from a query parameter) is not, and `javascript:` would run.
  if (target.protocol !== "http:" && target.protocol !== "https:")
    throw new ClientFailure(
      "InvalidCallbackUrl",
      0,
      `Not an http(s) URL to go to: ${target.protocol}`,
    )
  window.location.href = target.href
  // Only the fragment changed: the browser would just scroll, so load the page again.
  if (target.hash && target.href.split("#")[0] === current.href.split("#")[0])
    window.location.reload()
}
