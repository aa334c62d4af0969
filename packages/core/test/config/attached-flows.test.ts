/**
 * The passkey flow comes with its factory (`WebAuthn()`, `Passkey()`): core has
 * no built-in loader for `webauthn`, so a provider object written by hand with
 * that type is a configuration error that names the factories, and a factory's
 * provider keeps its flow through the ways an app may copy or extend it.
 */
import { describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Passkey from "@tessera/core/providers/passkey"
import WebAuthn from "@tessera/core/providers/webauthn"
import { MemoryAdapter } from "@tessera/testing"
import { get, makeConfig } from "../harness/index.js"

async function providersOf(config: AuthConfig) {
  const response = await Auth(new Request("http://localhost:3000/auth/providers"), config)
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

describe("a hand-written webauthn provider", () => {
  test("is refused when the configuration is resolved, naming the factories", async () => {
    const { config, log } = makeConfig({
      adapter: MemoryAdapter(),
      providers: [
        { id: "passkey", name: "Passkey", type: "webauthn" } as AuthConfig["providers"][0],
      ],
    })
    const response = await Auth(get("/auth/session"), config)
    expect(response.status).toBe(500)
    // Auth.js's body for a broken configuration, word for word (no error name).
    expect(await response.json()).toEqual({
      message:
        "There was a problem with the server configuration. Check the server logs for more information.",
    })
    expect(log.logged).toEqual([
      expect.objectContaining({
        type: "InvalidConfiguration",
        message: expect.stringMatching(/@tessera\/core\/providers\/webauthn.*\/passkey/),
      }),
    ])
  })

  test("a copy of a factory's provider keeps the flow: spread, options, the factory itself", async () => {
    for (const provider of [
      { ...Passkey(), name: "Face ID" },
      { ...WebAuthn({ id: "key" }), options: { name: "Security key" } },
      Passkey,
    ]) {
      const { config, log } = makeConfig({ adapter: MemoryAdapter(), providers: [provider] })
      const { status, body } = await providersOf(config)
      expect(log.logged).toEqual([])
      expect(status).toBe(200)
      expect(Object.values(body)).toEqual([expect.objectContaining({ type: "webauthn" })])
    }
  })
})
