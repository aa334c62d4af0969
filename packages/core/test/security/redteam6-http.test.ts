/**
 * Red team, round 6: the HTTP trust boundaries of `Auth()`.
 *
 * Mail bombing through the e-mail sign-in limit: "5 mails per address per
 * hour" is there so nobody can flood one inbox with sign-in mails. The limit
 * counted the address as written, so `victim+1@`, `victim+2@`, ... (one
 * mailbox wherever sub-addressing is on, as at Gmail and Fastmail), or case
 * variants under an app's own `normalizeIdentifier` that keeps case, each got
 * five mails of their own: without `ipHeader` (no per-IP limit) the inbox got
 * as many as the attacker asked for. The addresses mailed stay as typed.
 */
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { MemoryAdapter } from "@tessera/testing"
import { csrfToken, makeConfig, ORIGIN, post } from "../harness/index.js"

const rateLimitedPage = `${ORIGIN}/auth/signin?error=RateLimited`

function mailApp(normalizeIdentifier?: (address: string) => string) {
  const sent: string[] = []
  const { config } = makeConfig({
    adapter: MemoryAdapter(),
    rateLimit: { store: new MemoryRateLimitStore() },
    providers: [
      Email({
        ...(normalizeIdentifier ? { normalizeIdentifier } : {}),
        sendVerificationRequest: ({ identifier }) => void sent.push(identifier),
      }),
    ],
  })
  const request = async (email: string) => {
    const { token, jar } = await csrfToken(config)
    const response = await Auth(
      post("/auth/signin/email", { email, csrfToken: token }, { jar }),
      config,
    )
    return response.headers.get("location")
  }
  return { sent, request }
}

describe("e-mail sign-in limit: one count per mailbox", () => {
  test("sub-addresses of one mailbox (victim+1@, victim+2@, ...) share its five mails", async () => {
    const { sent, request } = mailApp()
    const answers: Array<string | null> = []
    for (let i = 0; i < 8; i++) answers.push(await request(`victim+${i}@example.com`))
    expect(sent).toHaveLength(5)
    // Each mail went to the address as typed; the sixth request on was refused.
    expect(sent).toEqual([0, 1, 2, 3, 4].map((i) => `victim+${i}@example.com`))
    expect(answers.slice(5)).toEqual([rateLimitedPage, rateLimitedPage, rateLimitedPage])
    // The bare mailbox is the same one.
    expect(await request("victim@example.com")).toBe(rateLimitedPage)
    // Other mailboxes keep their own count.
    expect(await request("victim2@example.com")).not.toBe(rateLimitedPage)
    expect(await request("other+victim@example.com")).not.toBe(rateLimitedPage)
  })

  test("an app's normalizeIdentifier that keeps case does not split the count", async () => {
    const { sent, request } = mailApp((address) => address.trim())
    const spellings = [
      "victim",
      "Victim",
      "VICTIM",
      "vIctim",
      "viCtim",
      "vicTim",
      "victIm",
      "victiM",
    ]
    for (const local of spellings) await request(`${local}@Example.com`)
    expect(sent).toHaveLength(5)
    // Still the app's own identifiers: the address is not changed, only counted once.
    expect(sent[1]).toBe("Victim@Example.com")
  })
})
