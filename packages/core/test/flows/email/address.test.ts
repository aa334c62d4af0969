/**
 * Addresses are normalized and strictly validated before anything is stored or
 * mailed: anything a mail library could read as a second recipient is refused.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import Email, { type EmailSendVerificationRequestParams } from "@tessera/core/providers/email"
import Nodemailer, { verificationMessage } from "@tessera/core/providers/nodemailer"
import { startMailSink, type MailSink } from "@tessera/testing"
import { normalizeEmailAddress } from "../../../src/flows/email/address.js"
import { memoryBackend } from "../../harness/backends.js"
import { linkIn, requestLink, uniqueAddress } from "./fixtures.js"
import { makeConfig, ORIGIN } from "../../harness/index.js"

const refused: [string, unknown][] = [
  ["two @", "ada@evil.test@example.com"],
  ["a quoted local part smuggling an address", '"ada@evil.test"@example.com'],
  ["a quoted local part with a space", '"ada lovelace"@example.com'],
  ["a quoted local part smuggling a list", '"ada@evil.test, x"@example.com'],
  ["an address list", "ada@example.com, eve@evil.test"],
  ["a semicolon list", "ada@example.com;eve@evil.test"],
  ["a display name", "Ada <ada@example.com>"],
  ["angle brackets", "<ada@example.com>"],
  ["a trailing angle address", "ada@example.com <eve@evil.test>"],
  ["a comment", "ada(comment)@example.com"],
  ["a backslash", "ada\\@example.com"],
  ["CR LF header injection", "ada@example.com\r\nBcc: eve@evil.test"],
  ["a NUL", "ada\u0000@example.com"],
  ["a tab inside", "ada\t@example.com"],
  ["a Unicode line separator", "ada\u2028@example.com"],
  ["a C1 control", "ada\u0085@example.com"],
  ["a space inside", "ada lovelace@example.com"],
  ["no @", "ada.example.com"],
  ["an empty local part", "@example.com"],
  ["an empty domain", "ada@"],
  ["a leading dot", ".ada@example.com"],
  ["a trailing dot", "ada.@example.com"],
  ["two dots", "ada..lovelace@example.com"],
  ["an IP literal", "ada@[127.0.0.1]"],
  ["an IPv4 domain", "ada@127.0.0.1"],
  ["a dotless domain", "ada@localhost"],
  ["a hyphen-led label", "ada@-example.com"],
  ["an empty label", "ada@example..com"],
  ["a path after the domain", "ada@example.com/evil"],
  ["a path after a Unicode domain", "ada@bücher.example/evil"],
  ["a percent-encoded domain", "ada@ex%61mple.com"],
  ["a 65-character local part", `${"a".repeat(65)}@example.com`],
  [
    "an over-long address (255 characters)",
    `ada@${"a".repeat(60)}.${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(60)}.${"e".repeat(3)}.com`,
  ],
  ["a non-ASCII local part", "adä@example.com"],
  ["an empty string", "   "],
  ["a number", 42],
  ["an array", ["ada@example.com"]],
]

describe("normalizeEmailAddress", () => {
  test.each([
    ["  Ada.Lovelace@Example.COM ", "ada.lovelace@example.com"],
    ["ada+tag@mail.example.co.uk", "ada+tag@mail.example.co.uk"],
    ["o'brien@example.com", "o'brien@example.com"],
    ["ada@bücher.example", "ada@xn--bcher-kva.example"],
    [`${"a".repeat(64)}@example.com`, `${"a".repeat(64)}@example.com`],
  ])("%j -> %j", (input, expected) => {
    expect(normalizeEmailAddress(input)).toBe(expected)
  })

  test.each(refused)("refuses %s", (_why, input) => {
    expect(() => normalizeEmailAddress(input)).toThrow()
  })

  test("its errors never quote the input", () => {
    const secretish = '"tok_0123456789"@example.com'
    try {
      normalizeEmailAddress(secretish)
      expect.unreachable()
    } catch (error) {
      expect((error as Error).message).not.toContain("tok_0123456789")
    }
  })
})

describe("refused addresses, end to end", () => {
  let sink: MailSink
  beforeAll(async () => {
    sink = await startMailSink()
  })
  afterAll(async () => {
    await sink?.stop()
  })

  test("each ends on the sign-in page with error=EmailSignin: no mail, no token, nothing stored", async () => {
    const backend = memoryBackend()
    const { config, log } = makeConfig({
      adapter: backend.adapter,
      providers: [Nodemailer({ server: sink.url, from: "auth@example.com" })],
    })
    for (const [why, input] of refused) {
      // Non-strings can only come in a JSON body.
      const { response } = await requestLink(config, input, { json: typeof input !== "string" })
      expect(response.status, why).toBe(302)
      expect(response.headers.get("location"), why).toBe(`${ORIGIN}/auth/signin?error=EmailSignin`)
    }
    // JSON bodies can carry non-strings: refused the same way.
    const { response } = await requestLink(config, { $ne: null }, { json: true })
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=EmailSignin`)

    expect(await backend.tokens()).toEqual([])
    expect(await backend.users()).toEqual([])
    expect(log.errors.every((e) => (e as { type?: string }).type === "EmailSignInError")).toBe(true)
    // Let any stray mail arrive before concluding none was sent.
    await new Promise((r) => setTimeout(r, 200))
    expect(sink.messages).toEqual([])

    const page = await Auth(new Request(`${ORIGIN}/auth/signin?error=EmailSignin`), config)
    expect(await page.text()).toContain(
      "The email could not be sent. Check the address and try again.",
    )
  })

  test("normalizeIdentifier can be overridden (here: a company-only policy)", async () => {
    const backend = memoryBackend()
    const sent: string[] = []
    const { config } = makeConfig({
      adapter: backend.adapter,
      providers: [
        Email({
          normalizeIdentifier(identifier) {
            const address = identifier.trim().toLowerCase()
            if (!address.endsWith("@corp.example")) throw new Error("Only corp.example addresses")
            return address
          },
          sendVerificationRequest: ({ identifier }) => void sent.push(identifier),
        }),
      ],
    })
    const outsider = await requestLink(config, "ada@example.com", { providerId: "email" })
    expect(outsider.response.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?error=EmailSignin`,
    )
    const insider = await requestLink(config, " Ada@Corp.Example", { providerId: "email" })
    expect(insider.response.headers.get("location")).toBe(
      `${ORIGIN}/auth/verify-request?provider=email&type=email`,
    )
    expect(sent).toEqual(["ada@corp.example"])
  })
})

describe("the generic Email provider", () => {
  test("passes identifier, url, token, expires, provider, theme and the request to sendVerificationRequest", async () => {
    const backend = memoryBackend()
    const calls: EmailSendVerificationRequestParams[] = []
    const { config } = makeConfig({
      adapter: backend.adapter,
      theme: { brandColor: "#123456" },
      providers: [Email({ sendVerificationRequest: (params) => void calls.push(params) })],
    })
    const address = uniqueAddress()
    await requestLink(config, address, { providerId: "email" })
    await requestLink(config, address, { providerId: "email" })
    expect(calls).toHaveLength(2)
    const [first, second] = calls
    expect(first!.identifier).toBe(address)
    expect(first!.token).toMatch(/^[0-9a-f]{64}$/)
    expect(second!.token).not.toBe(first!.token)
    expect(first!.url).toBe(
      `${ORIGIN}/auth/callback/email?${new URLSearchParams({ callbackUrl: ORIGIN, token: first!.token, email: address })}`,
    )
    expect(first!.expires.valueOf() - Date.now()).toBeGreaterThan(24 * 3600_000 - 5000)
    expect(first!.provider).toMatchObject({ id: "email", type: "email" })
    expect(first!.theme).toMatchObject({ brandColor: "#123456" })
    expect(first!.request).toBeInstanceOf(Request)
    expect(first!.request.url).toBe(`${ORIGIN}/auth/signin/email`)
  })

  test("a custom generateVerificationToken is used, and its token signs in", async () => {
    const backend = memoryBackend()
    let url = ""
    const { config } = makeConfig({
      adapter: backend.adapter,
      providers: [
        Email({
          generateVerificationToken: () => `code-${crypto.randomUUID()}`,
          sendVerificationRequest: (params) => void (url = params.url),
        }),
      ],
    })
    await requestLink(config, uniqueAddress(), { providerId: "email" })
    expect(new URL(url).searchParams.get("token")).toMatch(/^code-/)
    const response = await Auth(new Request(url), config)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`)
  })

  test("configuration errors are reported at start, as error=Configuration", async () => {
    const cases = [
      {
        why: "no adapter",
        config: makeConfig({ providers: [Email({ sendVerificationRequest: () => {} })] }),
      },
      {
        why: "Nodemailer without server",
        config: makeConfig({ adapter: memoryBackend().adapter, providers: [Nodemailer({})] }),
      },
      {
        why: "Email with neither server nor sender",
        config: makeConfig({ adapter: memoryBackend().adapter, providers: [Email()] }),
      },
      {
        why: "a short provider secret",
        config: makeConfig({
          adapter: memoryBackend().adapter,
          providers: [Email({ secret: "short", sendVerificationRequest: () => {} })],
        }),
      },
    ]
    for (const {
      why,
      config: { config, log },
    } of cases) {
      const response = await Auth(new Request(`${ORIGIN}/auth/signin`), config)
      expect(response.status, why).toBe(500)
      expect(log.errors, why).toHaveLength(1)
    }
  })
})

describe("the default message", () => {
  test("has a text and an HTML part with the same link, everything escaped", () => {
    const url = `${ORIGIN}/auth/callback/email?token=abc&email=a%40b.example&x="><script>alert(1)</script>`
    const message = verificationMessage({
      url,
      host: `<img src=x onerror=alert(1)>`,
      theme: { brandColor: `red;background:url(javascript:alert(1))`, buttonText: "#fff" },
    })
    expect(message.subject).toBe("Sign in to <img src=x onerror=alert(1)>")
    expect(message.text).toContain(url)
    expect(message.html).not.toContain("<script")
    expect(message.html).not.toContain("<img")
    expect(message.html).not.toContain("javascript:")
    expect(message.html).toContain("&lt;img src=x onerror=alert(1)&gt;")
    expect(message.html).toContain(
      `href="${ORIGIN}/auth/callback/email?token=abc&amp;email=a%40b.example&amp;x=&quot;&gt;&lt;script&gt;`,
    )
  })

  test("the mail as received decodes to the same link in both parts", async () => {
    const sink = await startMailSink()
    try {
      const backend = memoryBackend()
      const { config } = makeConfig({
        adapter: backend.adapter,
        providers: [Nodemailer({ server: sink.url })],
      })
      const address = uniqueAddress()
      await requestLink(config, address)
      const mail = await sink.waitForMessage()
      expect(mail.from).toBe("no-reply@localhost")
      const link = linkIn(mail)
      expect(link.searchParams.get("email")).toBe(address)
      // Nodemailer wraps long lines with quoted-printable: the raw message must not be what the test read.
      expect(mail.raw).toMatch(/Content-Transfer-Encoding: quoted-printable/i)
    } finally {
      await sink.stop()
    }
  })
})
