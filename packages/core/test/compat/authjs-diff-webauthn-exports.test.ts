/**
 * Found by bench/compat-diff-integrations.mjs (the provider modules of @auth/sveltekit and
 * @auth/express, export by export): `@auth/core/providers/webauthn` exports
 * `DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION`; an app importing it from
 * `@tessera/core/providers/webauthn` (or the framework packages' `/providers/webauthn`) did not
 * build. Tessera's value names the @simplewebauthn/browser release its built-in page inlines.
 */
import { describe, expect, it } from "vitest"
import * as webauthn from "@tessera/core/providers/webauthn"
import { webauthnClientScript } from "../../src/flows/webauthn/client-script.generated.js"

describe("@tessera/core/providers/webauthn exports", () => {
  it("DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION: Auth.js's `v<semver>`, the bundled release", () => {
    const version = webauthn.DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION
    expect(version).toMatch(/^v\d+\.\d+\.\d+$/)
    expect(webauthnClientScript).toContain(`@simplewebauthn/browser@${version.slice(1)}]`)
  })
})
