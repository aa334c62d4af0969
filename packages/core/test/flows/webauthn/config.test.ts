import { describe, expect, it } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { MemoryAdapter } from "@tessera/testing"
import Credentials from "@tessera/core/providers/credentials"
import Passkey from "@tessera/core/providers/passkey"
import WebAuthn from "@tessera/core/providers/webauthn"
import { renderClientScriptModule } from "../../../scripts/embed-webauthn-client.mjs"
import { webauthnClientScript } from "../../../src/flows/webauthn/client-script.generated.js"
import { webauthnClientScriptHash } from "@tessera/core/providers/webauthn"
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { PasskeyBrowser, passkeyConfig } from "./passkey-browser.js"
import { SECRET } from "../../harness/index.js"

/** Resolves `config` through a real request; returns the logged configuration error type, if any. */
async function configurationError(
  config: Partial<AuthConfig>,
): Promise<{ status: number; type?: string; message?: string }> {
  const logged: { type?: string; message: string }[] = []
  const full = {
    secret: SECRET,
    trustHost: true,
    logger: {
      error: (e: Error & { type?: string }) =>
        void logged.push({ type: e.type, message: e.message }),
      warn() {},
    },
    providers: [],
    ...config,
  } as AuthConfig
  const response = await Auth(
    new Request("http://localhost:3000/auth/providers"),
    full as Omit<AuthConfig, "raw">,
  )
  return { status: response.status, ...logged[0] }
}

describe("WebAuthn provider factories", () => {
  it("Passkey and WebAuthn have Auth.js' ids and defaults; options override them", () => {
    expect(Passkey()).toMatchObject({
      id: "passkey",
      name: "Passkey",
      type: "webauthn",
      enableConditionalUI: true,
      challengeMaxAge: 300,
    })
    expect(Passkey().formFields?.email?.autocomplete).toBe("username webauthn")
    expect(WebAuthn()).toMatchObject({
      id: "webauthn",
      name: "WebAuthn",
      type: "webauthn",
      enableConditionalUI: true,
    })
    expect(Passkey({ name: "Face ID", id: "faceid" })).toMatchObject({
      id: "faceid",
      name: "Face ID",
      type: "webauthn",
    })
  })

  it("is listed by the providers action, without any experimental flag", async () => {
    const { config } = passkeyConfig()
    const response = await new PasskeyBrowser(config).fetch("/auth/providers")
    expect(await response.json()).toEqual({
      passkey: {
        id: "passkey",
        name: "Passkey",
        type: "webauthn",
        signinUrl: "http://localhost:3000/auth/signin/passkey",
        callbackUrl: "http://localhost:3000/auth/callback/passkey",
      },
    })
  })
})

describe("WebAuthn configuration errors, at start", () => {
  it("needs an adapter", async () => {
    expect(await configurationError({ providers: [Passkey()] })).toMatchObject({
      status: 500,
      type: "MissingAdapter",
    })
  })

  it("needs the authenticator (and verification token) methods: MissingAdapterMethods", async () => {
    const { getAuthenticator, updateAuthenticatorCounter, createVerificationToken, ...adapter } =
      MemoryAdapter()
    const result = await configurationError({ adapter, providers: [Passkey()] })
    expect(result).toMatchObject({ status: 500, type: "MissingAdapterMethods" })
    expect(result.message).toContain(
      "getAuthenticator, updateAuthenticatorCounter, createVerificationToken",
    )
  })

  it("needs getAccount (a passkey signs in through its account): MissingAdapterMethods", async () => {
    const { getAccount, ...adapter } = MemoryAdapter()
    const result = await configurationError({ adapter, providers: [Passkey()] })
    expect(result).toMatchObject({ status: 500, type: "MissingAdapterMethods" })
    expect(result.message).toContain("getAccount")
  })

  it("allows conditional UI on one provider only: DuplicateConditionalUI", async () => {
    const providers = [Passkey(), WebAuthn({ enableConditionalUI: true })]
    expect(await configurationError({ adapter: MemoryAdapter(), providers })).toMatchObject({
      type: "DuplicateConditionalUI",
    })
    // Another configuration with one conditional provider is fine: the check is per configuration.
    expect(
      await configurationError({
        adapter: MemoryAdapter(),
        providers: [WebAuthn({ enableConditionalUI: true })],
      }),
    ).toMatchObject({ status: 200 })
  })

  it("needs a webauthn autocomplete field for conditional UI: MissingWebAuthnAutocomplete", async () => {
    const providers = [
      Passkey({ formFields: { email: { label: "Email", autocomplete: "email" } } }),
    ]
    expect(await configurationError({ adapter: MemoryAdapter(), providers })).toMatchObject({
      type: "MissingWebAuthnAutocomplete",
    })
  })

  it("checks the relying party and challengeMaxAge", async () => {
    for (const provider of [
      Passkey({ relayingParty: { id: "https://example.com" } }),
      Passkey({ relayingParty: { id: "example.com:443" } }),
      Passkey({ relayingParty: { origin: "example.com" } }),
      Passkey({ relayingParty: { origin: "https://example.com/login" } }),
      Passkey({ relayingParty: { origin: [] } }),
      Passkey({ relayingParty: { id: "example.com", origin: "https://example.org" } }),
      Passkey({ challengeMaxAge: 0 }),
      Passkey({ challengeMaxAge: 86_400 }),
    ]) {
      const result = await configurationError({ adapter: MemoryAdapter(), providers: [provider] })
      expect(
        result.status,
        JSON.stringify(provider.relayingParty ?? provider.challengeMaxAge),
      ).toBe(500)
    }
    const fine = Passkey({
      relyingParty: { id: "Example.COM", origin: ["https://example.com", "https://a.example.com"] },
    })
    expect(await configurationError({ adapter: MemoryAdapter(), providers: [fine] })).toMatchObject(
      { status: 200 },
    )
  })
})

describe("the built-in sign-in page", () => {
  it("has a passkey form with autofill and the passkey script", async () => {
    const { config } = passkeyConfig()
    const response = await new PasskeyBrowser(config).fetch(
      "/auth/signin?email=a%22b%40example.com",
    )
    const page = await response.text()
    expect(page).toContain(
      '<form class="provider" action="http://localhost:3000/auth/signin/passkey" method="POST" data-webauthn-provider="passkey" data-auth-url="http://localhost:3000/auth" data-conditional-ui data-message-unsupported="This browser does not support passkeys. Choose another way to sign in."',
    )
    expect(page).toMatch(
      /<input id="input-email-for-passkey-provider" name="email" type="email" value="a&quot;b@example.com" placeholder="email@example.com" autocomplete="username webauthn">/,
    )
    expect(page).toMatch(/<input type="hidden" name="csrfToken" value="[0-9a-f]{64}">/)
    expect(page).toContain(
      '<button type="submit" data-pending="Waiting for your passkey…">Sign in with a passkey</button>\n<p class="error" data-webauthn-error="passkey" role="alert" hidden></p>\n</form>',
    )
    // Once, with the nonce the page's Content-Security-Policy allows (beside the page's own script).
    const nonce = /script-src 'nonce-([^']+)'/.exec(
      response.headers.get("content-security-policy")!,
    )![1]
    expect(page).toContain(`<script nonce="${nonce}">${webauthnClientScript}</script>`)
    expect(page.split(webauthnClientScript)).toHaveLength(2)
    expect(page.match(/<script\b/g)).toHaveLength(2)
    expect(page.match(/<script nonce="/g)).toHaveLength(2)
  })

  it("without a WebAuthn provider, has no passkey script; with autofill turned off, none", async () => {
    const plain = await Auth(new Request("http://localhost:3000/auth/signin"), {
      secret: SECRET,
      trustHost: true,
      providers: [Credentials({ credentials: { user: {} }, authorize: () => null })],
    })
    expect(await plain.text()).not.toContain("SimpleWebAuthnBrowser")
    const { config } = passkeyConfig({ providers: [WebAuthn({ enableConditionalUI: false })] })
    const page = await (await new PasskeyBrowser(config).fetch("/auth/signin")).text()
    expect(page).toContain('data-webauthn-provider="webauthn"')
    expect(page).not.toMatch(/<form[^>]*data-conditional-ui/)
    // WebAuthn() offers autofill by default, as in Auth.js.
    const withDefaults = passkeyConfig({ providers: [WebAuthn()] }).config
    const autofill = await (await new PasskeyBrowser(withDefaults).fetch("/auth/signin")).text()
    expect(autofill).toMatch(/<form[^>]*data-conditional-ui/)
    expect(page).toContain("<script nonce=")
  })

  it("inlines a client script that is up to date with its sources", () => {
    const generated = readFileSync(
      new URL("../../../src/flows/webauthn/client-script.generated.ts", import.meta.url),
      "utf8",
    )
    expect(generated).toBe(renderClientScriptModule())
    expect(webauthnClientScript).toContain("SimpleWebAuthnBrowser")
    expect(webauthnClientScript).not.toMatch(/<\/script|<!--/i)
    // The published CSP hash is the hash of exactly what the page inlines.
    expect(webauthnClientScriptHash).toBe(
      `sha256-${createHash("sha256").update(webauthnClientScript).digest("base64")}`,
    )
  })
})
