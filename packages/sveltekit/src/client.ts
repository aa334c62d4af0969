/**
 * Browser-side sign-in and sign-out (`@tessera/sveltekit/client`).
 *
 * Each call fetches a CSRF token from `<basePath>/csrf`, posts to the matching
 * auth action asking for the redirect as JSON (`X-Auth-Return-Redirect: 1`) and
 * then follows it, or, with `redirect: false`, returns the outcome instead.
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
 * ```
 * @module
 */
import type { PublicProvider } from "@tessera/core/types"

/** The second step of a sign-in for users with a second factor: `signIn("two-factor", { code })`. */
const TWO_FACTOR_ID = "two-factor"

/** Where the auth actions are mounted when no `basePath` is given. */
const DEFAULT_BASE_PATH = "/auth"

export interface SignInParams {
  /** Where to go after signing in. Default: the current page. */
  redirectTo?: string
  /** Auth.js' older name of `redirectTo`. */
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

export interface SignInResult {
  /** True when the sign-in succeeded. */
  ok: boolean
  /** HTTP status of the sign-in request. */
  status: number
  /** The `error` query value of the page the server redirected to (`CredentialsSignin`, ...), if any. */
  error: string | undefined
  /** The `code` that came with a `CredentialsSignin` error. */
  code: string | undefined
  /** Where the server would have sent the browser; `null` on error. */
  url: string | null
}

export interface SignOutParams {
  redirectTo?: string
  callbackUrl?: string
  /** `false`: do not navigate, resolve to `{ url }`. Default `true`. */
  redirect?: boolean
  basePath?: string
}

type AuthorizationParams = string | string[][] | Record<string, string> | URLSearchParams

/** Fields the client adds itself; never posted from `params`. */
const RESERVED = new Set(["redirectTo", "callbackUrl", "redirect", "basePath", "action"])

/**
 * Starts a sign-in. Without a provider id (or with one the server does not
 * know), opens the sign-in page. Credentials pass their fields in `params`;
 * `authorizationParams` are added to an OAuth/OIDC authorization request.
 */
export async function signIn(
  providerId?: string,
  params: SignInParams = {},
  authorizationParams?: AuthorizationParams,
): Promise<SignInResult | undefined> {
  const basePath = trimBasePath(params.basePath)
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
  const provider = providers?.[providerId]
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

/** Ends the session, then goes to `redirectTo` (default: the current page). */
export async function signOut(params: SignOutParams = {}): Promise<{ url: string } | undefined> {
  const basePath = trimBasePath(params.basePath)
  const callbackUrl = params.redirectTo ?? params.callbackUrl ?? window.location.href
  const csrfToken = await getCsrfToken({ basePath })
  const response = await post(`${basePath}/signout`, { csrfToken, callbackUrl })
  const data = await json<{ url?: string }>(response)
  const url = data?.url ?? callbackUrl
  if (params.redirect === false) return { url }
  navigate(url)
  return undefined
}

/** The CSRF token the state-changing actions need (also sets its cookie). */
export async function getCsrfToken(options: { basePath?: string } = {}): Promise<string> {
  const response = await fetch(`${trimBasePath(options.basePath)}/csrf`, {
    headers: { accept: "application/json" },
  })
  const data = await json<{ csrfToken?: string }>(response)
  if (!response.ok || typeof data?.csrfToken !== "string") {
    throw new Error(`Could not get a CSRF token (HTTP ${response.status})`)
  }
  return data.csrfToken
}

/** The configured providers, by id, or `null` when the server did not answer. */
export async function getProviders(
  options: { basePath?: string } = {},
): Promise<Record<string, PublicProvider> | null> {
  const response = await fetch(`${trimBasePath(options.basePath)}/providers`, {
    headers: { accept: "application/json" },
  })
  return response.ok ? await json<Record<string, PublicProvider>>(response) : null
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
  const optionsResponse = await fetch(`${basePath}/webauthn-options/${id}?${query}`, {
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
    throw new Error(
      `Could not get passkey options (HTTP ${optionsResponse.status}${answer?.error ? `: ${answer.error}` : ""})`,
    )
  }
  const data =
    answer.action === "register"
      ? await startRegistration({ optionsJSON: answer.options })
      : await startAuthentication({ optionsJSON: answer.options })
  const response = await post(`${basePath}/callback/${id}`, {
    ...fields,
    action: answer.action,
    data: JSON.stringify(data),
    csrfToken,
    callbackUrl,
  })
  return outcome(response, callbackUrl, params.redirect === false)
}

/** Follows the server's answer, or describes it when the caller asked for no navigation. */
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
  if (!returnResult) {
    navigate(url ?? callbackUrl)
    return undefined
  }
  const ok = response.ok && !error
  return { ok, status: response.status, error, code, url: ok ? url : null }
}

function post(url: string, body: Record<string, string>): Promise<Response> {
  return fetch(url, {
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

function trimBasePath(basePath: string | undefined): string {
  return (basePath ?? DEFAULT_BASE_PATH).replace(/\/+$/, "")
}

/** Full navigation, so the server renders the next page with the new session. */
function navigate(url: string): void {
  const current = new URL(window.location.href)
  const target = new URL(url, current)
  // The server's URLs are checked there; a fallback (`redirectTo`, which an app
  // may take from a query parameter) is not, and `javascript:` would run.
  if (target.protocol !== "http:" && target.protocol !== "https:")
    throw new Error(`Not an http(s) URL to go to: ${target.protocol}`)
  window.location.href = target.href
  // Only the fragment changed: the browser would just scroll, so load the page again.
  if (target.hash && target.href.split("#")[0] === current.href.split("#")[0])
    window.location.reload()
}
