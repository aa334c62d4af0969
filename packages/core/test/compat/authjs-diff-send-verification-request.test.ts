/**
 * Found by differential testing against `@auth/core` 0.41.3 (the same e-mail provider given to
 * both libraries' `Auth()`, the arguments of `sendVerificationRequest` compared): Auth.js hands
 * the provider over as its internal provider, with `signinUrl` and `callbackUrl` (the URLs
 * `/auth/providers` lists), which a hand-written mail can use (a "request a new link" button);
 * Tessera's had neither. The other fields (`identifier`, `url`, `token`, `expires`, `theme`,
 * `request`, the provider's own options) were already the same.
 */
import { expect, test } from "vitest"
import { Auth } from "@tessera/core"
import { MemoryAdapter } from "@tessera/testing"
import { ORIGIN, makeConfig } from "../harness/index.js"
import { requestLink } from "../flows/email/fixtures.js"

test("sendVerificationRequest's provider has signinUrl and callbackUrl, as /providers lists them", async () => {
  const seen: Record<string, unknown>[] = []
  const { config } = makeConfig({
    adapter: MemoryAdapter(),
    providers: [
      {
        id: "email",
        type: "email",
        name: "Email",
        from: "auth@example.com",
        sendVerificationRequest: async ({ provider }) => void seen.push(provider),
      },
    ],
  })
  const { response } = await requestLink(config, "ada@example.com", { providerId: "email" })
  expect(response.status).toBe(302)
  const listed = (await (await Auth(new Request(`${ORIGIN}/auth/providers`), config)).json()) as {
    email: { signinUrl: string; callbackUrl: string }
  }
  expect(seen).toHaveLength(1)
  expect(seen[0]).toMatchObject({
    id: "email",
    type: "email",
    name: "Email",
    from: "auth@example.com",
    signinUrl: `${ORIGIN}/auth/signin/email`,
    callbackUrl: `${ORIGIN}/auth/callback/email`,
  })
  expect(seen[0]!.signinUrl).toBe(listed.email.signinUrl)
  expect(seen[0]!.callbackUrl).toBe(listed.email.callbackUrl)
})
