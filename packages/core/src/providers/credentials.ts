/**
 * Sign in with anything: a user name and password, a one-time code, a wallet.
 * `authorize` checks the submitted fields and returns a user, or `null` (or throws
 * `CredentialsSignin`) to refuse.
 *
 * @example
 * ```ts
 * import Credentials from "@tessera/core/providers/credentials"
 * Credentials({
 *   credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
 *   async authorize({ username, password }) {
 *     const user = await findUser(String(username))
 *     return user && (await verifyPassword(user, String(password))) ? user : null
 *   },
 * })
 * ```
 * @module
 */
import type { Awaitable, User } from "../types.js"
import type { CommonProviderOptions } from "./index.js"

/**
 * One form field on the built-in sign-in page. Extra keys become `<input>` attributes.
 *
 * @see [Auth.js: Credentials provider](https://authjs.dev/reference/core/providers/credentials)
 */
export interface CredentialInput {
  label?: string
  type?: string
  value?: string
  placeholder?: string
  required?: boolean
  autocomplete?: string
  [attribute: string]: unknown
}

/**
 * A credentials provider after `Credentials()`: its form fields and `authorize`.
 *
 * @see [Auth.js: Credentials provider](https://authjs.dev/reference/core/providers/credentials)
 */
export interface CredentialsConfig<
  C extends Record<string, CredentialInput> = Record<string, CredentialInput>,
> extends CommonProviderOptions {
  type: "credentials"
  /** The fields of the sign-in form, by name. */
  credentials: C
  /**
   * Receives the submitted fields and the original request. Return the user to
   * sign in, `null` to refuse (`error=CredentialsSignin&code=credentials`), or
   * throw a `CredentialsSignin` whose `code` is shown in the URL.
   */
  authorize: (
    credentials: Partial<Record<keyof C, unknown>>,
    request: Request,
  ) => Awaitable<User | null>
}

/**
 * The `type` Auth.js gives the credentials provider's module (kept for type compatibility).
 *
 * @see [Auth.js: Credentials provider](https://authjs.dev/reference/core/providers/credentials)
 */
export type CredentialsProviderType = "Credentials"

/**
 * The credentials provider's id (Auth.js's name for it).
 *
 * @see [Auth.js: CredentialsProviderId](https://authjs.dev/reference/core/providers/credentials)
 */
export type CredentialsProviderId = "credentials"

/**
 * What `Credentials(options)` takes: every field of {@link CredentialsConfig}, all optional.
 *
 * @see [Auth.js: Credentials provider](https://authjs.dev/reference/core/providers/credentials)
 */
export interface CredentialsUserConfig<
  C extends Record<string, CredentialInput> = Record<string, CredentialInput>,
> extends Partial<Omit<CredentialsConfig<C>, "type">> {}

/**
 * Sign in with credentials your app checks: a user name and password, a one-time code, ...
 * With database sessions the user `authorize` returns is stored on first sign-in (Auth.js
 * refuses that combination). Rate-limit the route (`@tessera/core/rate-limit`).
 *
 * @param config `credentials` (the form's fields, by name) and `authorize(credentials, request)`,
 *   which returns the user or `null`. `Credentials()` with no options refuses every sign-in (as
 *   Auth.js's default `authorize`, which returns `null`); options without `authorize` are a
 *   configuration error (`MissingAuthorize`), since such a provider could never sign anyone in.
 * @see [Auth.js: Credentials](https://authjs.dev/reference/core/providers/credentials)
 */
export default function Credentials<
  C extends Record<string, CredentialInput> = Record<string, CredentialInput>,
>(config: CredentialsUserConfig<C> = {}): CredentialsConfig<C> {
  // Only the bare `Credentials()` gets the refuse-everyone default: options that forget
  // `authorize` are a mistake, reported by name when the configuration is resolved.
  const refuseEveryone = Object.keys(config).length === 0 ? { authorize: () => null } : {}
  return {
    id: "credentials",
    name: "Credentials",
    type: "credentials",
    credentials: {} as C,
    ...refuseEveryone,
    ...config,
  } as CredentialsConfig<C>
}
