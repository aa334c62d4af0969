/**
 * `runProviderTests` from the main entry (`@tessera/testing`), next to `runAdapterTests`, without
 * the main entry loading vitest (an optional peer): called at the top level of a test file, it
 * registers one suite whose collector loads the suite module (`./suites.js`) and runs the
 * conformance suite there (Vitest awaits a suite's collector before it runs the file's tests).
 *
 * The handle it returns stands for the suite's own: it answers once the suite is collected,
 * which is before any test of the file runs, and its stand-in lives until the file ends.
 * @module
 */
import type { CredentialsProviderTestOptions } from "./credentials-provider-tests.js"
import type { EmailProviderTestHandle, EmailProviderTestOptions } from "./email-provider-tests.js"
import type { SmtpProviderTestOptions } from "./smtp-provider-tests.js"
import type { WebAuthnProviderTestOptions } from "./webauthn-provider-tests.js"
import type {
  OAuthProviderTestOptions,
  ProviderTestHandle,
  ProviderTestIdentity,
} from "./provider-tests.js"
import { runningVitest, standInTeardown } from "./running-vitest.js"

/**
 * The provider conformance suite (OAuth/OIDC against a loopback stand-in of the provider, an
 * e-mail provider's mail API with `api`, SMTP with `smtp`, credentials, or passkeys with
 * `webauthn`): call it at the top level of a Vitest test file. The same suite as
 * `@tessera/testing/suites`' `runProviderTests`.
 *
 * @param options The provider and its endpoints (OAuth/OIDC), its mail API (`api`), `smtp`,
 *   `credentials`, or `webauthn`.
 * @returns For OAuth and mail APIs, a handle for tests of the provider's own quirks.
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export function runProviderTests<I extends ProviderTestIdentity>(
  options: OAuthProviderTestOptions<I>,
): ProviderTestHandle<I>
export function runProviderTests(options: EmailProviderTestOptions): EmailProviderTestHandle
export function runProviderTests(options: SmtpProviderTestOptions): void
export function runProviderTests(options: CredentialsProviderTestOptions): void
export function runProviderTests(options: WebAuthnProviderTestOptions): void
export function runProviderTests(
  options:
    | OAuthProviderTestOptions<any>
    | EmailProviderTestOptions
    | SmtpProviderTestOptions
    | CredentialsProviderTestOptions
    | WebAuthnProviderTestOptions,
): ProviderTestHandle<any> | EmailProviderTestHandle | void {
  let handle: object | undefined
  const vitest = runningVitest("runProviderTests")
  // The stand-in lives until the end of the file, as with `@tessera/testing/suites` at top level.
  const stops: Array<() => unknown> = []
  vitest.afterAll(async () => {
    for (const stop of stops) await stop()
  })
  const lifetime = { [standInTeardown]: (stop: () => unknown) => void stops.push(stop) }
  vitest.describe("provider conformance", async () => {
    const suites = await import("./suites.js")
    // One call for every kind: the suite module picks the kind from the options, as here.
    const run = suites.runProviderTests as (options: object) => object | void
    handle = run({ ...options, ...lifetime }) ?? undefined
  })
  return new Proxy({} as ProviderTestHandle<any>, {
    get(_target, key) {
      if (!handle) {
        throw new Error(
          "The runProviderTests handle answers once its suite is collected: use it in a test or hook",
        )
      }
      const value: unknown = Reflect.get(handle, key)
      return typeof value === "function" ? value.bind(handle) : value
    },
  })
}
