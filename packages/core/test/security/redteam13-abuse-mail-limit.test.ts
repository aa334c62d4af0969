/**
 * Red team 13: mail bombing one inbox past the per-mailbox limit (5 sign-in
 * mails per hour). Case and `+tag` variants already shared the count, but
 * Gmail (and every Google Workspace domain) ignores dots in the local part
 * and delivers `googlemail.com` to the same inbox: `a.da.lovelace@gmail.com`,
 * `ad.a.lovelace@gmail.com`, ... are 2^(n-1) spellings of one inbox of n
 * letters, each with 5 mails of its own, all landing in the victim's inbox
 * (no IP key unless the app names its proxy's header). Now dots are ignored
 * in the count (only the count: the mail goes to the address as typed) and
 * `googlemail.com` counts as `gmail.com`. Through `Auth()`.
 */
import { expect, test } from "vitest"
import { Auth } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { MemoryAdapter } from "@tessera/testing"
import { csrfToken, makeConfig, ORIGIN, post } from "../harness/index.js"

function mailer() {
  const sent: string[] = []
  const { config } = makeConfig({
    adapter: MemoryAdapter(),
    rateLimit: { store: new MemoryRateLimitStore() },
    providers: [
      Email({ sendVerificationRequest: async ({ identifier }) => void sent.push(identifier) }),
    ],
  })
  const ask = async (email: string) => {
    const { token, jar } = await csrfToken(config)
    const response = await Auth(
      post("/auth/signin/email", { email, csrfToken: token }, { jar }),
      config,
    )
    return response.headers.get("location")
  }
  return { sent, ask }
}

const LIMITED = `${ORIGIN}/auth/signin?error=RateLimited`

test("dotted spellings and googlemail.com of one Gmail inbox share its 5 mails an hour", async () => {
  const { sent, ask } = mailer()
  for (let i = 0; i < 5; i++) expect(await ask("ada.lovelace@gmail.com")).not.toBe(LIMITED)
  for (const variant of [
    "adalovelace@gmail.com",
    "a.d.a.l.o.v.e.l.a.c.e@gmail.com",
    "ada.love.lace+x@gmail.com",
    "ada.lovelace@googlemail.com",
    "AdaLovelace@GoogleMail.com",
  ]) {
    expect(await ask(variant)).toBe(LIMITED)
  }
  expect(sent).toHaveLength(5)
})

test("other mailboxes keep their own count; the mail goes to the address as typed", async () => {
  const { sent, ask } = mailer()
  for (let i = 0; i < 5; i++) await ask("ada.lovelace@gmail.com")
  expect(await ask("grace.hopper@gmail.com")).not.toBe(LIMITED)
  expect(await ask("ada.lovelace@example.com")).not.toBe(LIMITED)
  expect(sent.slice(-2)).toEqual(["grace.hopper@gmail.com", "ada.lovelace@example.com"])
})
