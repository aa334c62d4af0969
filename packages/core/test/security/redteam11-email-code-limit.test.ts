/**
 * Red team 11: a one-time e-mail code's 5 attempts are restored by every new
 * mail, and earlier codes stay valid until they expire. With the `email` and
 * `emailCode` limits on (the default), mails and wrong codes per address are
 * bounded: the right code is refused once the address is locked. Issue 13 makes
 * `rateLimit: false` turn every limit off, and a rule may be `false` alone: the
 * app's call, kept as specified, but Tessera warns `rate-limit-codes-unguarded`
 * at start while a provider mails codes.
 */
import { expect, test } from "vitest"
import { Auth } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import type { EmailSendVerificationRequestParams } from "@tessera/core/providers"
import { csrfToken, get, Jar, makeConfig, post } from "../harness/index.js"
import { memoryBackend, sqliteBackend } from "../harness/backends.js"

test("default limits: asking for new codes does not buy unlimited guesses", async () => {
  const backend = await sqliteBackend()
  try {
    const mailed: EmailSendVerificationRequestParams[] = []
    const { config } = makeConfig({
      adapter: backend.adapter,
      rateLimit: { email: false },
      providers: [
        Email({ method: "code", sendVerificationRequest: async (p) => void mailed.push(p) }),
      ],
    })
    const victim = "victim@example.com"
    const ask = async () => {
      const { token, jar } = await csrfToken(config)
      const response = await Auth(
        post("/auth/signin/email", { email: victim, csrfToken: token }, { jar }),
        config,
      )
      expect(response.status).toBe(302)
      return mailed.at(-1)!.code!
    }
    const enter = async (code: string) => {
      const jar = new Jar()
      const { token } = await csrfToken(config, jar)
      const response = await Auth(
        post("/auth/callback/email", { email: victim, code, csrfToken: token }, { jar }),
        config,
      )
      jar.update(response)
      const session = await (await Auth(get("/auth/session", { jar }), config)).json()
      return { location: response.headers.get("location") ?? "", signedIn: session !== null }
    }
    const codes: string[] = []
    for (let mail = 0; mail < 6; mail++) {
      codes.push(await ask())
      for (let i = 0; i < 4; i++) {
        // A value that is none of the codes mailed so far.
        let guess = String(10_000_000 + mail * 10 + i)
        while (codes.includes(guess)) guess = String(Number(guess) + 1000)
        expect((await enter(guess)).signedIn).toBe(false)
      }
    }
    const right = await enter(codes.at(-1)!)
    expect(right.signedIn).toBe(false)
    expect(right.location).toContain("error=RateLimited")
  } finally {
    await backend.close()
  }
})

test("rateLimit: false or { emailCode: false } turn the code limit off, with a warning while codes are mailed", async () => {
  const sent = async () => undefined
  for (const rateLimit of [false, { emailCode: false }] as const) {
    for (const method of ["code", "both", "link"] as const) {
      const { config, log } = makeConfig({
        adapter: memoryBackend().adapter,
        rateLimit,
        twoFactor: false, // only the e-mail codes' limit is in question here
        providers: [Email({ method, sendVerificationRequest: sent })],
      })
      const response = await Auth(get("/auth/session"), config)
      expect(response.status).toBe(200)
      expect(log.errors).toEqual([])
      expect(log.warnings.includes("rate-limit-codes-unguarded")).toBe(method !== "link")
    }
  }
})
