/**
 * Red team 11: an e-mail provider's own `generateVerificationToken` may make
 * short tokens (Tessera accepts 1 to 512 characters, as Auth.js does), and a
 * link's token had no limit on guessing: only posted codes were counted
 * (`emailCode`). With 6-digit tokens an attacker requested a link for the
 * victim's address and tried `?token=000000...999999&email=victim`. Failed
 * before the fix: the right token after 40 wrong ones signed in. Now a link
 * whose token is shorter than 32 characters is counted like a code (the
 * `emailCode` limit per address); the default
 * 256-bit tokens are never counted, so bogus links cannot lock anyone out.
 */
import { expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import type { EmailSendVerificationRequestParams } from "@tessera/core/providers"
import { csrfToken, get, Jar, makeConfig, post } from "../harness/index.js"
import { sqliteBackend } from "../harness/backends.js"

async function attack(rateLimit: AuthConfig["rateLimit"], short: boolean) {
  const backend = await sqliteBackend()
  try {
    const mailed: EmailSendVerificationRequestParams[] = []
    const six = () => String(crypto.getRandomValues(new Uint32Array(1))[0]! % 1e6).padStart(6, "0")
    const { config } = makeConfig({
      adapter: backend.adapter,
      ...(rateLimit === undefined ? {} : { rateLimit }),
      providers: [
        Email({
          sendVerificationRequest: async (p) => void mailed.push(p),
          ...(short ? { generateVerificationToken: six } : {}),
        }),
      ],
    })
    const victim = `victim-${crypto.randomUUID().slice(0, 8)}@example.com`
    const { token, jar } = await csrfToken(config)
    await Auth(post("/auth/signin/email", { email: victim, csrfToken: token }, { jar }), config)
    const real = new URL(mailed[0]!.url).searchParams.get("token")!
    const click = async (value: string) => {
      const browser = new Jar()
      const response = await Auth(
        get(`/auth/callback/email?${new URLSearchParams({ token: value, email: victim })}`, {
          jar: browser,
        }),
        config,
      )
      browser.update(response)
      const session = await (await Auth(get("/auth/session", { jar: browser }), config)).json()
      return { location: response.headers.get("location") ?? "", signedIn: session !== null }
    }
    const wrong = (i: number) =>
      short
        ? String((Number(real) + i) % 1e6).padStart(6, "0")
        : [...real].reverse().join("").slice(0, -2) + String(i).padStart(2, "0")
    for (let i = 1; i <= 40; i++) expect((await click(wrong(i))).signedIn).toBe(false)
    // Awaited here: the backend closes in `finally`.
    return await click(real)
  } finally {
    await backend.close()
  }
}

test("6-digit link tokens: the right one after 40 wrong guesses is refused (default limits)", async () => {
  const right = await attack(undefined, true)
  expect(right.signedIn).toBe(false)
  expect(right.location).toContain("error=RateLimited")
})

test("default 256-bit link tokens: 40 bogus links for the address lock nothing out", async () => {
  const right = await attack(undefined, false)
  expect(right.signedIn).toBe(true)
})
