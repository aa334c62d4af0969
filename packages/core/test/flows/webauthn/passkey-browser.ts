/**
 * Passkeys as a browser does them: `passkeyConfig()` (a memory adapter, the Passkey
 * provider, a recording logger) and `PasskeyBrowser`, the harness's browser with a
 * software authenticator and the steps of the passkey endpoints.
 */
import { MemoryAdapter } from "@tessera/testing"
import Passkey from "@tessera/core/providers/passkey"
import type { AuthConfig } from "@tessera/core"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { Browser, ORIGIN, recordingLogger, SECRET } from "../../harness/index.js"
import { SoftAuthenticator } from "@tessera/testing/webauthn-authenticator"

export type { Logged } from "../../harness/index.js"

export function passkeyConfig(overrides: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const log = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    providers: [Passkey()],
    // Refusals are logged at debug level: record them with the server errors, as "what was logged".
    debug: true,
    logger: log.logger,
    // Counters of this configuration's own: tests in one file do not share limits.
    rateLimit: { store: new MemoryRateLimitStore() },
    ...overrides,
  }
  return { config, adapter, store: adapter.store, errors: log.logged }
}

/** The harness's browser with an authenticator: registers and uses passkeys. */
export class PasskeyBrowser extends Browser {
  readonly authenticator: SoftAuthenticator

  constructor(config: AuthConfig, origin = ORIGIN, authenticator?: SoftAuthenticator) {
    super(config, origin)
    this.authenticator = authenticator ?? new SoftAuthenticator()
  }

  async options(
    query: Record<string, string> = {},
    providerId = "passkey",
  ): Promise<{ status: number; body: any; response: Response }> {
    const response = await this.fetch(
      `/auth/webauthn-options/${providerId}?${new URLSearchParams(query)}`,
    )
    return { status: response.status, body: await response.json(), response }
  }

  /** POSTs a ceremony result to the callback as the page's script does (form body). */
  async callback(
    action: string,
    data: unknown,
    extra: Record<string, string> = {},
    headers: Record<string, string> = {},
    providerId = "passkey",
  ) {
    const csrfToken = extra.csrfToken ?? (await this.csrfToken())
    const body = new URLSearchParams({
      action,
      data: typeof data === "string" ? data : JSON.stringify(data),
      csrfToken,
      ...extra,
    })
    return this.fetch(`/auth/callback/${providerId}`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: this.origin,
        ...headers,
      },
      body,
    })
  }

  /** Registers a new account with a passkey; returns the callback response. */
  async registerNew(email: string): Promise<Response> {
    const { body } = await this.options({ email })
    if (body.action !== "register")
      throw new Error(`expected register, got ${JSON.stringify(body)}`)
    return this.callback(
      "register",
      this.authenticator.register(body.options, { origin: this.origin }),
    )
  }

  async signInWithPasskey(): Promise<Response> {
    const { body } = await this.options({ action: "authenticate" })
    return this.callback(
      "authenticate",
      this.authenticator.authenticate(body.options, { origin: this.origin }),
    )
  }
}
