/**
 * A passkey provider's `getUserInfo(options, request)` as Auth.js calls it: `options` carries
 * `adapter`, `provider` and `url` (Auth.js's internal options), so a custom `getUserInfo`
 * written for Auth.js (`const { adapter } = options`) runs unchanged. The provider's own fields
 * stay readable on `options` for code written to Tessera's earlier `getUserInfo(provider, ...)`.
 */
import { expect, test } from "vitest"
import Passkey from "@tessera/core/providers/passkey"
import type { Adapter } from "@tessera/core/adapters"
import { PasskeyBrowser, passkeyConfig } from "../flows/webauthn/passkey-browser.js"

test("getUserInfo receives Auth.js's options: adapter, provider, url", async () => {
  const seen: { providerId?: unknown; url?: string; ownId?: unknown } = {}
  const { config, store } = passkeyConfig({
    providers: [
      Passkey({
        // As Auth.js's default getUserInfo is written.
        async getUserInfo(options, request) {
          seen.providerId = options.provider.id
          seen.url = String(options.url)
          seen.ownId = options.id
          const adapter = options.adapter as Adapter
          const email = request.query?.email
          if (!email || typeof email !== "string") return null
          const existing = await adapter.getUserByEmail!(email)
          if (existing) return { user: existing, exists: true }
          return { user: { email }, exists: false }
        },
      }),
    ],
  })
  const browser = new PasskeyBrowser(config)
  const { status, body } = await browser.options({ email: "new@example.com" })
  expect(status).toBe(200)
  expect(body.action).toBe("register")
  expect(body.options.user.name).toBe("new@example.com")
  expect(seen).toEqual({
    providerId: "passkey",
    url: "http://localhost:3000/auth",
    ownId: "passkey",
  })
  expect(store.users.size).toBe(0)
})
