/**
 * Review of red team 22: a passkey sign-in records its challenge as used, and (without
 * `swapAuthenticatorCounter`) claims the counter's step, as verification tokens whose second
 * insert fails. Only that refusal (a duplicate) is the client's doing; the database failing
 * to store the token (down, read-only, full) is a server fault: logged at error level and
 * answered as one, not taken for "a cloned authenticator" or "a used challenge" at debug level.
 */
import { expect, test } from "vitest"
import { MemoryAdapter } from "@tessera/testing"
import type { Adapter } from "@tessera/core/adapters"
import { recordingLogger } from "../harness/index.js"
import { PasskeyBrowser, passkeyConfig } from "../flows/webauthn/passkey-browser.js"

const HOME = "http://localhost:3000"

/** A memory adapter whose `createVerificationToken` fails, once armed, for one identifier. */
function failingTokens(prefix: string, { swap }: { swap: boolean }) {
  const memory = MemoryAdapter()
  const { swapAuthenticatorCounter, ...rest } = memory
  const state = { armed: false }
  const adapter: Adapter = {
    ...rest,
    ...(swap ? { swapAuthenticatorCounter } : {}),
    createVerificationToken: async (token) => {
      if (state.armed && token.identifier.startsWith(prefix))
        throw new Error("connection terminated unexpectedly")
      return memory.createVerificationToken!(token)
    },
  }
  return { adapter, state }
}

for (const [what, prefix, swap] of [
  ["the counter's step (no swapAuthenticatorCounter)", "webauthn-counter", false],
  ["the challenge's use", "webauthn-used:", true],
] as const) {
  test(`a database fault storing ${what} is a server fault, logged at error level`, async () => {
    const { adapter, state } = failingTokens(prefix, { swap })
    const log = recordingLogger()
    const { config } = passkeyConfig({ adapter, logger: log.logger })
    const browser = new PasskeyBrowser(config)
    expect((await browser.registerNew("ada@example.com")).status).toBe(302)
    await browser.signOut()
    state.armed = true
    const location = (await browser.signInWithPasskey()).headers.get("location")
    expect(location).not.toBe(HOME)
    expect(location).toContain("error=Configuration")
    expect(log.errors.map((e) => e.message).join("\n")).toMatch(
      /Adapter method createVerificationToken failed/,
    )
    expect(log.refusals.map((e) => e.message).join("\n")).not.toMatch(/cloned|already used/)
    // The fault gone, the passkey signs in: nothing was left claimed.
    state.armed = false
    expect((await browser.signInWithPasskey()).headers.get("location")).toBe(HOME)
  })
}
