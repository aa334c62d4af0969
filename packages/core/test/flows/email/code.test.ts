/**
 * One-time e-mail codes and confirmation pages for links, end to end:
 * `Auth()` -> nodemailer -> a real SMTP server -> the code or link read from
 * the mail -> the verify-request page's form (or the link) -> a session. On
 * the memory adapter, SQLite in a file and PostgreSQL.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Nodemailer from "@tessera/core/providers/nodemailer"
import { startMailSink, type MailSink, type ReceivedMail } from "@tessera/testing"
import {
  memoryBackend,
  PostgresFixture,
  sqliteBackend,
  type Backend,
} from "../../harness/backends.js"
import { follow, requestLink, uniqueAddress } from "./fixtures.js"
import { csrfToken, get, Jar, makeConfig, ORIGIN, post, setsSession } from "../../harness/index.js"

let sink: MailSink
const postgres = new PostgresFixture()
beforeAll(async () => {
  ;[sink] = await Promise.all([startMailSink(), postgres.start()])
}, 60_000)
afterAll(async () => {
  await Promise.all([sink?.stop(), postgres.stop()])
})
afterEach(() => {
  vi.useRealTimers()
})

function emailConfig(backend: Backend, provider: Record<string, unknown>) {
  return makeConfig({
    debug: true,
    adapter: backend.adapter,
    providers: [Nodemailer({ server: sink.url, from: "auth@example.com", ...provider })],
  })
}

const mailTo = (address: string) => sink.waitForMessage((m) => m.to.includes(address))

function codeIn(mail: ReceivedMail): string {
  const code = /Your sign-in code: (\d{8})/.exec(mail.text)?.[1]
  expect(code).toBeDefined()
  expect(mail.html).toContain(code)
  return code!
}

/** POST the verify-request page's form: the address, the code and the page's CSRF token. */
async function enterCode(config: AuthConfig, jar: Jar, email: string, code: string) {
  const { token } = await csrfToken(config, jar)
  const response = await Auth(
    post("/auth/callback/nodemailer", { email, code, csrfToken: token }, { jar }),
    config,
  )
  jar.update(response)
  return response
}

async function session(config: AuthConfig, jar: Jar) {
  return (await Auth(get("/auth/session", { jar }), config)).json()
}

describe.each([
  ["memory", async () => memoryBackend()],
  ["sqlite", sqliteBackend],
  ["postgres", () => postgres.backend()],
] as const)("e-mail codes on %s", (_name, makeBackend) => {
  let backend: Backend
  beforeEach(async () => {
    backend = await makeBackend()
  })
  afterEach(async () => {
    await backend.close()
  })

  test('method "code": 8 digits by mail, a form on the verify-request page, a session once, stored hashed', async () => {
    const { config } = emailConfig(backend, { method: "code" })
    const address = uniqueAddress()
    const before = Date.now()
    const { response, jar } = await requestLink(config, address, { callbackUrl: "/home" })
    const verify = `${ORIGIN}/auth/verify-request?${new URLSearchParams({ provider: "nodemailer", type: "email", email: address })}`
    expect(response.headers.get("location")).toBe(verify)

    const mail = await mailTo(address)
    const code = codeIn(mail)
    // A code-only mail links nowhere: nothing in it for a scanner to follow.
    expect(mail.text).not.toMatch(/https?:\/\//)
    const stored = await backend.tokens()
    expect(stored.some((t) => t.token.includes(code))).toBe(false)
    const codeRow = stored.find((t) => t.identifier === `email-code:nodemailer:${address}`)!
    expect(codeRow.expires.valueOf()).toBeGreaterThanOrEqual(before + 600_000 - 1000)
    expect(codeRow.expires.valueOf()).toBeLessThanOrEqual(Date.now() + 600_000 + 1000)

    // The page asks for the code, posting to the callback with the CSRF token.
    const page = await Auth(get(verify, { jar }), config)
    jar.update(page)
    const html = await page.text()
    expect(html).toContain(`action="${ORIGIN}/auth/callback/nodemailer"`)
    expect(html).toContain('autocomplete="one-time-code"')
    expect(html).toContain(`value="${address}"`)
    expect(html).toMatch(/<label for="verify-code">/)

    const signedIn = await enterCode(config, jar, address, `${code.slice(0, 4)} ${code.slice(4)}`)
    expect(signedIn.headers.get("location")).toBe(`${ORIGIN}/home`)
    expect(setsSession(signedIn)).toBe(true)
    expect((await session(config, jar)).user.email).toBe(address)
    const [user] = (await backend.users()).filter((u) => u.email === address)
    expect(user!.emailVerified).toBeInstanceOf(Date)

    // Single use.
    const again = await enterCode(config, new Jar(), address, code)
    expect(setsSession(again)).toBe(false)
    expect(again.headers.get("location")).toBe(
      `${ORIGIN}/auth/verify-request?${new URLSearchParams({ provider: "nodemailer", type: "email", email: address, error: "Verification" })}`,
    )
  })

  test("a code needs the CSRF token (login CSRF)", async () => {
    const { config } = emailConfig(backend, { method: "code" })
    const address = uniqueAddress()
    await requestLink(config, address)
    const code = codeIn(await mailTo(address))
    const forged = await Auth(post("/auth/callback/nodemailer", { email: address, code }), config)
    expect(setsSession(forged)).toBe(false)
    expect(forged.headers.get("location")).toContain("error=")
    // Still usable by its owner: the forged post consumed nothing.
    expect(setsSession(await enterCode(config, new Jar(), address, code))).toBe(true)
  })

  test("5 wrong attempts invalidate the code, even if the right one comes next", async () => {
    const { config } = emailConfig(backend, { method: "code" })
    const address = uniqueAddress()
    await requestLink(config, address)
    const code = codeIn(await mailTo(address))
    const wrong = String((Number(code) + 1) % 1e8).padStart(8, "0")
    for (let i = 0; i < 5; i++) {
      const response = await enterCode(config, new Jar(), address, wrong)
      expect(response.headers.get("location")).toContain("error=Verification")
    }
    const right = await enterCode(config, new Jar(), address, code)
    expect(setsSession(right)).toBe(false)
    expect(right.headers.get("location")).toContain("error=Verification")
  })

  test("concurrent guesses get 5 attempts between them", async () => {
    const { config } = emailConfig(backend, { method: "code" })
    const address = uniqueAddress()
    await requestLink(config, address)
    const code = codeIn(await mailTo(address))
    const guesses = Array.from({ length: 12 }, (_, i) =>
      String((Number(code) + 1 + i) % 1e8).padStart(8, "0"),
    )
    await Promise.all(guesses.map((g) => enterCode(config, new Jar(), address, g)))
    expect(setsSession(await enterCode(config, new Jar(), address, code))).toBe(false)
  })

  test("a code expires after 10 minutes", async () => {
    const { config } = emailConfig(backend, { method: "code" })
    const address = uniqueAddress()
    await requestLink(config, address)
    const code = codeIn(await mailTo(address))
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10 * 60_000 + 1000 })
    const late = await enterCode(config, new Jar(), address, code)
    expect(setsSession(late)).toBe(false)
    expect(late.headers.get("location")).toContain("error=Verification")
  })

  test("a code for another address does not work", async () => {
    const { config } = emailConfig(backend, { method: "code" })
    const [victim, attacker] = [uniqueAddress("victim"), uniqueAddress("attacker")]
    await requestLink(config, attacker)
    const code = codeIn(await mailTo(attacker))
    expect(setsSession(await enterCode(config, new Jar(), victim, code))).toBe(false)
  })

  test('method "both": the mail has the code and a link carrying it; either works, once', async () => {
    const { config } = emailConfig(backend, { method: "both" })
    const address = uniqueAddress()
    await requestLink(config, address, { callbackUrl: "/next" })
    const mail = await mailTo(address)
    const code = codeIn(mail)
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0])
    expect(link.pathname).toBe("/auth/callback/nodemailer")
    expect(link.searchParams.get("code")).toBe(code)
    expect(link.searchParams.has("token")).toBe(false)
    const { response, jar } = await follow(config, link)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/next`)
    expect((await session(config, jar)).user.email).toBe(address)
    // The code in the link was the code: used up.
    expect(setsSession(await enterCode(config, new Jar(), address, code))).toBe(false)
  })

  test("confirmLink: the link shows a confirmation page; only its POST signs in, once", async () => {
    const { config } = emailConfig(backend, { confirmLink: true })
    const address = uniqueAddress()
    await requestLink(config, address, { callbackUrl: "/after" })
    const mail = await mailTo(address)
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0])

    // A mail scanner opens the link, twice: nothing is consumed.
    for (let i = 0; i < 2; i++) {
      const scanned = await Auth(get(String(link)), config)
      expect(scanned.status).toBe(200)
      expect(setsSession(scanned)).toBe(false)
    }
    const tokensBefore = await backend.tokens()
    expect(tokensBefore.filter((t) => t.identifier === address)).toHaveLength(1)

    // The user opens it: "Sign in as alice@example.com" (issue 13's words, as one run of
    // text: no markup inside), a form with the link's fields and a CSRF token.
    const jar = new Jar()
    const page = await Auth(get(String(link), { jar }), config)
    jar.update(page)
    const html = await page.text()
    expect(html).toContain(`Sign in as ${address}`)
    expect(html).toContain(`action="${ORIGIN}/auth/callback/nodemailer"`)
    expect(page.headers.get("cache-control")).toContain("no-store")
    const field = (name: string) =>
      new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replaceAll("&amp;", "&")
    const form = {
      csrfToken: field("csrfToken")!,
      token: field("token")!,
      email: field("email")!,
      callbackUrl: field("callbackUrl")!,
    }
    expect(form.token).toBe(link.searchParams.get("token"))

    // Posted without the CSRF token (a page elsewhere auto-submitting it): refused, nothing used.
    const forged = await Auth(
      post("/auth/callback/nodemailer", { ...form, csrfToken: "" }, { jar }),
      config,
    )
    expect(setsSession(forged)).toBe(false)

    const confirmed = await Auth(post("/auth/callback/nodemailer", form, { jar }), config)
    jar.update(confirmed)
    expect(confirmed.headers.get("location")).toBe(`${ORIGIN}/after`)
    expect((await session(config, jar)).user.email).toBe(address)
    const replay = await Auth(post("/auth/callback/nodemailer", form, { jar }), config)
    expect(replay.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
  })

  test("confirmLink with codes: the link's page posts the code", async () => {
    const { config } = emailConfig(backend, { method: "both", confirmLink: true })
    const address = uniqueAddress()
    await requestLink(config, address)
    const mail = await mailTo(address)
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0])
    // Scanned: not even an attempt is spent.
    for (let i = 0; i < 6; i++) expect((await Auth(get(String(link)), config)).status).toBe(200)
    const jar = new Jar()
    const page = await Auth(get(String(link), { jar }), config)
    jar.update(page)
    const html = await page.text()
    expect(html).toContain(`name="code" value="${codeIn(mail)}"`)
    const csrf = /name="csrfToken" value="([^"]*)"/.exec(html)![1]!
    const confirmed = await Auth(
      post(
        "/auth/callback/nodemailer",
        { csrfToken: csrf, email: address, code: codeIn(mail) },
        { jar },
      ),
      config,
    )
    expect(setsSession(confirmed)).toBe(true)
  })
})

describe("e-mail codes: limits and configuration", () => {
  test("wrong codes count toward the emailCode limit of the address, across codes", async () => {
    const backend = memoryBackend()
    const { config } = makeConfig({
      adapter: backend.adapter,
      rateLimit: { emailCode: { max: 3, window: 900 } },
      providers: [Nodemailer({ server: sink.url, from: "auth@example.com", method: "code" })],
    })
    const address = uniqueAddress()
    await requestLink(config, address)
    const code = codeIn(await mailTo(address))
    const wrong = String((Number(code) + 1) % 1e8).padStart(8, "0")
    for (let i = 0; i < 3; i++) await enterCode(config, new Jar(), address, wrong)
    const limited = await enterCode(config, new Jar(), address, code)
    expect(limited.headers.get("location")).toContain("error=RateLimited")
    expect(limited.headers.get("location")).toContain("/auth/verify-request?")
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/)
  })

  test("an unknown method is a configuration error", async () => {
    const { config, log } = makeConfig({
      adapter: memoryBackend().adapter,
      providers: [Nodemailer({ server: sink.url, method: "sms" as never })],
    })
    expect((await Auth(get("/auth/session"), config)).status).toBe(500)
    expect(log.errors[0]?.message).toMatch(/method must be/)
  })

  test("a custom verifyRequest page gets the address and the error", async () => {
    const backend = memoryBackend()
    const { config } = makeConfig({
      adapter: backend.adapter,
      pages: { verifyRequest: "/check-email" },
      providers: [Nodemailer({ server: sink.url, method: "code" })],
    })
    const address = uniqueAddress()
    const { response } = await requestLink(config, address)
    const page = await Auth(get(response.headers.get("location")!), config)
    expect(page.headers.get("location")).toBe(
      `${ORIGIN}/check-email?${new URLSearchParams({ provider: "nodemailer", type: "email", email: address })}`,
    )
    const failed = await enterCode(config, new Jar(), address, "00000000")
    expect(failed.headers.get("location")).toBe(
      `${ORIGIN}/check-email?${new URLSearchParams({ provider: "nodemailer", type: "email", email: address, error: "Verification" })}`,
    )
  })
})
