/**
 * Drives `Auth()` with real `Request`s as a browser would: a cookie jar that
 * honours Set-Cookie (including expiry), and helpers for the passkey endpoints.
 */
import { Auth } from "@tessera/core"
import { MemoryAdapter } from "@tessera/testing"
import Passkey from "@tessera/core/providers/passkey"
import type { AuthConfig } from "@tessera/core"
import { SoftAuthenticator } from "./webauthn-authenticator.js"

export const SECRET = "a-test-secret-that-is-long-enough-0123456789"

export interface Logged {
  type?: string
  message: string
  cause?: string
}

export function passkeyConfig(overrides: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const errors: Logged[] = []
  const record = (error: Error & { type?: string; cause?: any }) =>
    void errors.push({ type: error.type, message: error.message, cause: error.cause?.err?.message })
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    providers: [Passkey()],
    // Refusals are logged at debug level: record them with the server errors, as "what was logged".
    debug: true,
    logger: {
      error: record,
      warn() {},
      debug(_message: string, metadata?: { error?: unknown }) {
        if (metadata?.error instanceof Error) record(metadata.error)
      },
    },
    ...overrides,
  }
  return { config, adapter, store: adapter.store, errors }
}

/** A browser: origin, cookie jar, and requests to `Auth()`. */
export class Browser {
  readonly jar = new Map<string, string>()
  readonly authenticator: SoftAuthenticator

  constructor(
    readonly config: AuthConfig,
    readonly origin = "http://localhost:3000",
    authenticator?: SoftAuthenticator,
  ) {
    this.authenticator = authenticator ?? new SoftAuthenticator()
  }

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ")
  }

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";")
      const index = pair!.indexOf("=")
      const name = pair!.slice(0, index).trim()
      const value = pair!.slice(index + 1).trim()
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))
      if (expired || value === "") this.jar.delete(name)
      else this.jar.set(name, value)
    }
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    if (this.jar.size) headers.set("cookie", this.cookieHeader())
    const response = await Auth(
      new Request(new URL(path, this.origin), { ...init, headers }),
      this.config as Omit<AuthConfig, "raw">,
    )
    this.store(response)
    return response
  }

  async csrfToken(): Promise<string> {
    const response = await this.fetch("/auth/csrf")
    return ((await response.json()) as { csrfToken: string }).csrfToken
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

  async session(): Promise<any> {
    const response = await this.fetch("/auth/session")
    return response.json()
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

  async signOut(): Promise<Response> {
    const csrfToken = await this.csrfToken()
    return this.fetch("/auth/signout", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: this.origin },
      body: new URLSearchParams({ csrfToken }),
    })
  }
}
