/**
 * E-mail sign-in end to end: `Auth()` -> nodemailer -> a real SMTP server on
 * 127.0.0.1 -> the link read from the received mail -> followed -> a database
 * session. On the memory adapter and on SQLite in a real file.
 */
import { createHash } from "node:crypto"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest"
import Email from "@tessera/core/providers/email"
import { Auth, type AuthConfig } from "@tessera/core"
import Nodemailer from "@tessera/core/providers/nodemailer"
import { startMailSink, type MailSink } from "@tessera/testing"
import { memoryBackend, sqliteBackend, type Backend } from "../../harness/backends.js"
import {
  countingAdapter,
  follow,
  linkIn,
  loggedText,
  requestLink,
  uniqueAddress,
} from "./fixtures.js"
import {
  get,
  isExpired,
  Jar,
  makeConfig,
  ORIGIN,
  post,
  sessionCookieName,
  setCookie,
} from "../../harness/index.js"

let sink: MailSink
beforeAll(async () => {
  sink = await startMailSink()
})
afterAll(async () => {
  await sink?.stop()
})

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex")

function emailConfig(
  backend: Backend,
  overrides: Partial<AuthConfig> = {},
  provider: Record<string, unknown> = {},
) {
  return makeConfig({
    // Refusals (a used link) are logged at debug level.
    debug: true,
    adapter: backend.adapter,
    providers: [
      Nodemailer({ server: sink.url, from: "Tessera Tests <auth@example.com>", ...provider }),
    ],
    ...overrides,
  })
}

const mailTo = (address: string) => sink.waitForMessage((m) => m.to.includes(address))

describe.each([
  ["memory", async () => memoryBackend()],
  ["sqlite", sqliteBackend],
] as const)("e-mail sign-in on %s", (_name, makeBackend) => {
  let backend: Backend
  beforeEach(async () => {
    backend = await makeBackend()
  })
  afterEach(async () => {
    await backend.close()
  })

  test("mails a link that signs in once, creating a verified user and a database session", async () => {
    const { config, log } = emailConfig(backend)
    const address = uniqueAddress()
    const before = Date.now()

    const { response } = await requestLink(config, `  ${address.toUpperCase()} `, {
      callbackUrl: "/dashboard",
    })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(
      `${ORIGIN}/auth/verify-request?provider=nodemailer&type=email`,
    )
    const remembered = setCookie(response, "tessera.callback-url")
    expect(remembered?.value).toBe(`${ORIGIN}/dashboard`)

    // The mail: to the normalized address, from the configured sender, text and HTML with one link.
    const mail = await mailTo(address)
    expect(mail.to).toEqual([address])
    expect(mail.from).toBe("auth@example.com")
    expect(mail.headers.from).toBe("Tessera Tests <auth@example.com>")
    expect(mail.subject).toBe("Sign in to localhost:3000")
    const link = linkIn(mail)
    expect(link.origin + link.pathname).toBe(`${ORIGIN}/auth/callback/nodemailer`)
    expect(link.searchParams.get("email")).toBe(address)
    expect(link.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/dashboard`)
    const token = link.searchParams.get("token")!
    expect(token).toMatch(/^[0-9a-f]{64}$/) // 256 bits

    // Stored: a keyed hash, never the token or its plain hash; expiring in 24 h by default.
    const [stored, ...more] = await backend.tokens()
    expect(more).toEqual([])
    expect(stored!.identifier).toBe(address)
    expect(stored!.token).not.toContain(token)
    expect(stored!.token).not.toBe(sha256(token))
    expect(stored!.expires.valueOf()).toBeGreaterThanOrEqual(before + 24 * 3600_000 - 1000)
    expect(stored!.expires.valueOf()).toBeLessThanOrEqual(Date.now() + 24 * 3600_000 + 1000)

    // Followed in a browser with no cookies at all (the mail may be opened anywhere).
    const { response: landed, jar } = await follow(config, link)
    expect(landed.status).toBe(302)
    expect(landed.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(landed.headers.get("cache-control")).toContain("no-store")
    expect(landed.headers.get("referrer-policy")).toBe("no-referrer")
    const cookie = setCookie(landed, sessionCookieName())!
    expect(cookie.value).toMatch(/^[0-9a-f]{64}$/)
    expect(cookie.attributes.httponly).toBe(true)
    expect(cookie.attributes.samesite).toBe("Lax")
    expect(cookie.attributes.path).toBe("/")

    expect(await backend.tokens()).toEqual([])
    const users = await backend.users()
    expect(users).toHaveLength(1)
    expect(users[0]!.email).toBe(address)
    expect(users[0]!.emailVerified).toBeInstanceOf(Date)
    const sessions = await backend.sessions()
    expect(sessions).toEqual([
      expect.objectContaining({ sessionToken: sha256(cookie.value), userId: users[0]!.id }),
    ])

    const session = await Auth(get("/auth/session", { jar }), config)
    expect(await session.json()).toMatchObject({ user: { email: address } })
    expect(log.errors).toEqual([])
  })

  test("a used link ends on the error page with error=Verification", async () => {
    const { config, log } = emailConfig(backend)
    const address = uniqueAddress()
    await requestLink(config, address)
    const link = linkIn(await mailTo(address))
    expect((await follow(config, link)).response.headers.get("location")).toBe(ORIGIN + "/")

    const { response } = await follow(config, link)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    expect(setCookie(response, sessionCookieName())).toBeUndefined()
    const page = await Auth(get("/auth/error?error=Verification"), config)
    expect(page.status).toBe(403)
    expect(await page.text()).toContain("The sign-in link is no longer valid")

    expect(log.errors).toEqual([])
    expect(log.refusals.map((e) => (e as { type?: string }).type)).toEqual(["Verification"])
    expect(loggedText(log.refusals)).not.toContain(link.searchParams.get("token")!)
    expect(await backend.sessions()).toHaveLength(1)
  })

  test("an expired link ends with error=Verification and is consumed", async () => {
    const { config } = emailConfig(backend)
    const address = uniqueAddress()
    await requestLink(config, address)
    const link = linkIn(await mailTo(address))
    await backend.setTokenExpires(address, new Date(Date.now() - 1000))

    const { response } = await follow(config, link)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    expect(await backend.tokens()).toEqual([])
    expect(await backend.users()).toEqual([])
    expect(await backend.sessions()).toEqual([])
  })

  test("two clicks racing on one link: exactly one signs in", async () => {
    const { config } = emailConfig(backend)
    const address = uniqueAddress()
    await requestLink(config, address)
    const link = linkIn(await mailTo(address))

    const results = await Promise.all(Array.from({ length: 5 }, () => follow(config, link)))
    const locations = results.map((r) => r.response.headers.get("location"))
    expect(locations.filter((l) => l === `${ORIGIN}/`)).toHaveLength(1)
    expect(locations.filter((l) => l === `${ORIGIN}/auth/error?error=Verification`)).toHaveLength(4)
    expect(await backend.users()).toHaveLength(1)
    expect(await backend.sessions()).toHaveLength(1)
  })

  test("an app's own confirmation page can POST the link's token and address", async () => {
    const { config } = emailConfig(backend)
    const address = uniqueAddress()
    await requestLink(config, address)
    const link = linkIn(await mailTo(address))
    const fields = { token: link.searchParams.get("token")!, email: address }
    const response = await Auth(post("/auth/callback/nodemailer", fields), config)
    expect(response.headers.get("location")).toMatch(/^http:\/\/localhost:3000\/?$/)
    expect(setCookie(response, sessionCookieName())?.value).toMatch(/^[0-9a-f]{64}$/)
    expect(
      (await Auth(post("/auth/callback/nodemailer", fields), config)).headers.get("location"),
    ).toBe(`${ORIGIN}/auth/error?error=Verification`)
  })

  test("a link works only with the address it was mailed to", async () => {
    const { config } = emailConfig(backend)
    const address = uniqueAddress()
    await requestLink(config, address)
    const link = linkIn(await mailTo(address))

    const forged = new URL(link)
    forged.searchParams.set("email", uniqueAddress("mallory"))
    expect((await follow(config, forged)).response.headers.get("location")).toBe(
      `${ORIGIN}/auth/error?error=Verification`,
    )
    expect(await backend.users()).toEqual([])
    // The failed attempt did not burn the real link.
    expect((await follow(config, link)).response.headers.get("location")).toBe(`${ORIGIN}/`)
  })

  test("a user whose address is verified signs in as themselves", async () => {
    const address = uniqueAddress()
    const existing = await backend.adapter.createUser!({
      id: crypto.randomUUID(),
      email: address,
      name: "Ada",
      emailVerified: new Date(Date.now() - 86_400_000),
      image: null,
    })
    const events: string[] = []
    const { config } = emailConfig(backend, {
      events: {
        createUser: () => void events.push("createUser"),
        updateUser: ({ user }) => void events.push(`updateUser:${user.id}`),
        signIn: ({ user, isNewUser }) => void events.push(`signIn:${user.id}:${isNewUser}`),
      },
    })
    await requestLink(config, address)
    await follow(config, linkIn(await mailTo(address)))

    const users = await backend.users()
    expect(users).toHaveLength(1)
    expect(users[0]).toMatchObject({ id: existing.id, name: "Ada" })
    expect(events).toEqual([`signIn:${existing.id}:false`])
  })

  test("an account holding the address unverified is not signed into: the claim is released, the prover gets an account of their own", async () => {
    const address = uniqueAddress()
    const claimer = await backend.adapter.createUser!({
      id: crypto.randomUUID(),
      email: address,
      name: "Claimer",
      emailVerified: null,
      image: null,
    })
    const events: string[] = []
    const { config } = emailConfig(backend, {
      events: {
        createUser: ({ user }) => void events.push(`createUser:${user.id === claimer.id}`),
        updateUser: ({ user }) => void events.push(`updateUser:${user.id === claimer.id}`),
      },
    })
    await requestLink(config, address)
    const { jar } = await follow(config, linkIn(await mailTo(address)))

    const users = await backend.users()
    expect(users).toHaveLength(2)
    const prover = users.find((u) => u.id !== claimer.id)!
    expect(prover).toMatchObject({ email: address })
    expect(prover.emailVerified).toBeInstanceOf(Date)
    expect(users.find((u) => u.id === claimer.id)!.email).toBeNull()
    expect(events).toEqual(["updateUser:true", "createUser:false"])
    const session = await Auth(get("/auth/session", { jar }), config)
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(address)
  })

  test("signed in as the account holding the address unverified, the link verifies it in place", async () => {
    const address = uniqueAddress()
    const { config } = emailConfig(backend, { session: { strategy: "database" } })
    const holder = await backend.adapter.createUser!({
      id: crypto.randomUUID(),
      email: address,
      name: "Holder",
      emailVerified: null,
      image: null,
    })
    const sessionToken = "s".repeat(40)
    await backend.adapter.createSession!({
      sessionToken: createHash("sha256").update(sessionToken).digest("hex"),
      userId: holder.id,
      expires: new Date(Date.now() + 3_600_000),
    })
    const jar = new Jar({ "tessera.session-token": sessionToken })
    await requestLink(config, address, { jar })
    await follow(config, linkIn(await mailTo(address)), jar)
    const users = await backend.users()
    expect(users).toHaveLength(1)
    expect(users[0]!.id).toBe(holder.id)
    expect(users[0]!.emailVerified).toBeInstanceOf(Date)
  })

  test("first-time users are sent to pages.newUser with the callback URL", async () => {
    const events: string[] = []
    const { config } = emailConfig(backend, {
      pages: { newUser: "/welcome" },
      events: { createUser: ({ user }) => void events.push(`createUser:${user.email}`) },
    })
    const address = uniqueAddress()
    await requestLink(config, address, { callbackUrl: "/dashboard" })
    const link = linkIn(await mailTo(address))
    const { response } = await follow(config, link)
    expect(response.headers.get("location")).toBe(
      `/welcome?callbackUrl=${encodeURIComponent(`${ORIGIN}/dashboard`)}`,
    )
    expect(events).toEqual([`createUser:${address}`])

    // The second time round they are not new.
    await requestLink(config, address, { callbackUrl: "/dashboard" })
    const again = linkIn(
      await sink.waitForMessage((m) => m.to.includes(address) && linkIn(m).href !== link.href),
    )
    expect((await follow(config, again)).response.headers.get("location")).toBe(
      `${ORIGIN}/dashboard`,
    )
  })

  test("malformed links get a 400 page and cost no database query", async () => {
    const counting = countingAdapter(backend.adapter)
    const { config } = emailConfig({ ...backend, adapter: counting.adapter })
    const token = "a".repeat(64)
    const cases = [
      "",
      "?email=ada%40example.com",
      `?token=${token}`,
      "?token=&email=ada%40example.com",
      "?token=has%20space&email=ada%40example.com",
      `?token=${"a".repeat(600)}&email=ada%40example.com`,
      `?token=${token}&email=ada%0d%0a%40example.com`,
      `?token=${token}&email=${"a".repeat(400)}%40example.com`,
      "?token=%E2%9C%93&email=ada%40example.com",
    ]
    for (const query of cases) {
      const response = await Auth(get(`/auth/callback/nodemailer${query}`), config)
      expect(response.status, query).toBe(400)
      expect(response.headers.get("content-type")).toContain("text/html")
      expect(await response.text()).toContain("The sign-in link is no longer valid")
    }
    expect(counting.total()).toBe(0)

    // Well-formed but unknown: one lookup, then the error page.
    const unknown = await Auth(
      get(`/auth/callback/nodemailer?token=${token}&email=ada%40example.com`),
      config,
    )
    expect(unknown.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Verification`)
    expect(counting.calls.get("useVerificationToken")).toBe(1)
    expect(await backend.users()).toEqual([])
  })
})

describe("e-mail sign-in: what must not send mail", () => {
  let backend: Backend
  beforeEach(() => {
    backend = memoryBackend()
  })

  test("a request without the CSRF token sends nothing", async () => {
    const { config } = emailConfig(backend)
    const address = uniqueAddress()
    const response = await Auth(
      new Request(`${ORIGIN}/auth/signin/nodemailer`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: address }),
      }),
      config,
    )
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=Signin`)
    await expect(sink.waitForMessage((m) => m.to.includes(address), 300)).rejects.toThrow(
      /no matching message/,
    )
    expect(await backend.tokens()).toEqual([])
  })

  test("the signIn callback is asked first (verificationRequest: true) and can refuse or redirect", async () => {
    const seen: unknown[] = []
    const refused = uniqueAddress("refused")
    const elsewhere = uniqueAddress("elsewhere")
    const { config } = emailConfig(backend, {
      callbacks: {
        signIn: ({ user, account, email }) => {
          seen.push({ email: user.email, account, verificationRequest: email?.verificationRequest })
          if (user.email === refused) return false
          if (user.email === elsewhere) return "/waitlist"
          return true
        },
      },
    })
    const denied = await requestLink(config, refused)
    expect(denied.response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    const redirected = await requestLink(config, elsewhere)
    expect(redirected.response.headers.get("location")).toBe(`${ORIGIN}/waitlist`)
    expect(seen).toEqual([
      {
        email: refused,
        account: expect.objectContaining({
          type: "email",
          provider: "nodemailer",
          providerAccountId: refused,
        }),
        verificationRequest: true,
      },
      {
        email: elsewhere,
        account: expect.objectContaining({ providerAccountId: elsewhere }),
        verificationRequest: true,
      },
    ])
    await expect(
      sink.waitForMessage((m) => m.to.includes(refused) || m.to.includes(elsewhere), 300),
    ).rejects.toThrow()
    expect(await backend.tokens()).toEqual([])
  })

  test("a mail server that refuses the recipient ends with error=EmailSignin and withdraws the token", async () => {
    const refusing = await startMailSink({
      rejectRecipient: (address) => address.startsWith("bounce"),
    })
    try {
      const { config, log } = makeConfig({
        adapter: backend.adapter,
        providers: [Nodemailer({ server: refusing.url, from: "auth@example.com" })],
      })
      const { response } = await requestLink(config, uniqueAddress("bounce"))
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=EmailSignin`)
      expect(await backend.tokens()).toEqual([])
      expect(refusing.messages).toEqual([])
      // The mail server refused: a server fault, with its own type; the user sees EmailSignin.
      expect(log.errors.map((e) => (e as { type?: string }).type)).toEqual(["EmailDeliveryError"])
    } finally {
      await refusing.stop()
    }
  })

  test("a mail server that is down ends with error=EmailSignin", async () => {
    const gone = await startMailSink()
    await gone.stop()
    const { config } = makeConfig({
      adapter: backend.adapter,
      providers: [
        Nodemailer({
          server: { host: "127.0.0.1", port: gone.port, connectionTimeout: 2000 },
          from: "auth@example.com",
        }),
      ],
    })
    const { response } = await requestLink(config, uniqueAddress())
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=EmailSignin`)
    expect(await backend.tokens()).toEqual([])
  })

  test("a JSON client gets the verify-request URL as JSON", async () => {
    const { config } = emailConfig(backend)
    const address = uniqueAddress()
    const { token, jar } = await (await import("../../harness/index.js")).csrfToken(config)
    const response = await Auth(
      new Request(`${ORIGIN}/auth/signin/nodemailer`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-auth-return-redirect": "1",
          cookie: jar.header(),
        },
        body: JSON.stringify({ email: address, csrfToken: token }),
      }),
      config,
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      url: `${ORIGIN}/auth/verify-request?provider=nodemailer&type=email`,
    })
    await mailTo(address)
  })
})

describe("e-mail sign-in: tokens and secrets", () => {
  test("the stored hash is keyed with the secret: another secret cannot use the link; a rotated one can", async () => {
    const backend = memoryBackend()
    const OLD = "old-secret-0123456789abcdef-0123456789abcdef"
    const NEW = "new-secret-0123456789abcdef-0123456789abcdef"
    const provider = Nodemailer({ server: sink.url, from: "auth@example.com" })
    const before = makeConfig({
      secret: OLD,
      adapter: backend.adapter,
      providers: [provider],
    }).config
    const stranger = makeConfig({
      secret: NEW,
      adapter: backend.adapter,
      providers: [provider],
    }).config
    const rotated = makeConfig({
      secret: [NEW, OLD],
      adapter: backend.adapter,
      providers: [provider],
    }).config

    const address = uniqueAddress()
    await requestLink(before, address)
    const link = linkIn(await mailTo(address))
    expect((await follow(stranger, link)).response.headers.get("location")).toBe(
      `${ORIGIN}/auth/error?error=Verification`,
    )
    expect(await backend.tokens()).toHaveLength(1)
    expect((await follow(rotated, link)).response.headers.get("location")).toBe(`${ORIGIN}/`)
  })

  test("a provider secret replaces the global one; maxAge sets the lifetime", async () => {
    const backend = memoryBackend()
    const own = "provider-secret-0123456789abcdef-0123456789"
    const providerOptions = { server: sink.url, from: "auth@example.com", secret: own, maxAge: 600 }
    const a = makeConfig({
      adapter: backend.adapter,
      providers: [Nodemailer(providerOptions)],
    }).config
    const b = makeConfig({
      secret: "b".repeat(40),
      adapter: backend.adapter,
      providers: [Nodemailer(providerOptions)],
    }).config
    const address = uniqueAddress()
    await requestLink(a, address)
    const [stored] = await backend.tokens()
    expect(stored!.expires.valueOf() - Date.now()).toBeGreaterThan(590_000)
    expect(stored!.expires.valueOf() - Date.now()).toBeLessThanOrEqual(600_000)
    // Same provider secret, different global secret: the link still works.
    expect((await follow(b, linkIn(await mailTo(address)))).response.headers.get("location")).toBe(
      `${ORIGIN}/`,
    )
  })

  test("nothing logged during a failing flow contains the token", async () => {
    const backend = memoryBackend()
    const { config, log } = makeConfig({
      debug: true,
      adapter: backend.adapter,
      providers: [Nodemailer({ server: sink.url, from: "auth@example.com" })],
    })
    const debug: string[] = []
    ;(config.logger as { debug: (m: string, meta?: unknown) => void }).debug = (m, meta) =>
      void debug.push(`${m} ${JSON.stringify(meta)}`)
    const address = uniqueAddress()
    await requestLink(config, address)
    const link = linkIn(await mailTo(address))
    await follow(config, link)
    await follow(config, link) // Verification, logged
    const malformed = new URL(link)
    malformed.searchParams.set("token", `${link.searchParams.get("token")} x`)
    await follow(config, malformed) // 400, logged at debug
    expect(debug.some((line) => line.startsWith("Verification:"))).toBe(true)
    expect(loggedText(log.errors, debug)).not.toContain(link.searchParams.get("token")!)
  })
})

describe("e-mail sign-in: the verify-request page and sessions", () => {
  test("the built-in sign-in page's e-mail form starts the flow", async () => {
    const backend = memoryBackend()
    const { config } = emailConfig(backend)
    const jar = new Jar()
    const page = await Auth(get("/auth/signin", { jar }), config)
    jar.update(page)
    const html = await page.text()
    expect(html).toContain(`action="${ORIGIN}/auth/signin/nodemailer"`)
    expect(html).toMatch(/<input[^>]+type="email"[^>]+name="email"/)
    const csrf = /name="csrfToken" value="([0-9a-f]{64})"/.exec(html)![1]!
    const address = uniqueAddress()
    const response = await Auth(
      post("/auth/signin/nodemailer", { csrfToken: csrf, email: address }, { jar }),
      config,
    )
    expect(response.headers.get("location")).toBe(
      `${ORIGIN}/auth/verify-request?provider=nodemailer&type=email`,
    )
    expect(linkIn(await mailTo(address)).searchParams.get("email")).toBe(address)
  })

  test("verify-request renders the built-in page", async () => {
    const { config } = emailConfig(memoryBackend())
    const response = await Auth(get("/auth/verify-request?provider=nodemailer&type=email"), config)
    expect(response.status).toBe(200)
    expect(await response.text()).toContain("Check your email")
  })

  test("signing in by e-mail while signed in as someone else replaces that session", async () => {
    const backend = memoryBackend()
    const { config } = emailConfig(backend)
    const first = uniqueAddress("first")
    const second = uniqueAddress("second")
    await requestLink(config, first)
    const { jar } = await follow(config, linkIn(await mailTo(first)))
    const firstToken = jar.get(sessionCookieName())!

    await requestLink(config, second, { jar })
    const { response } = await follow(config, linkIn(await mailTo(second)), jar)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`)
    expect(jar.get(sessionCookieName())).not.toBe(firstToken)
    const sessions = await backend.sessions()
    expect(sessions.map((s) => s.sessionToken)).not.toContain(sha256(firstToken))
    expect(sessions).toHaveLength(1)
    const session = await Auth(get("/auth/session", { jar }), config)
    expect(await session.json()).toMatchObject({ user: { email: second } })
    // The old cookie no longer works anywhere.
    const stale = await Auth(
      get("/auth/session", { jar: new Jar({ [sessionCookieName()]: firstToken }) }),
      config,
    )
    expect(await stale.json()).toBeNull()
    expect(isExpired(setCookie(stale, sessionCookieName())!)).toBe(true)
  })
})

describe("the signIn callback fails closed", () => {
  test("e-mail: a signIn callback answering undefined mails no link", async () => {
    const sent: string[] = []
    const { config } = makeConfig({
      adapter: memoryBackend().adapter,
      callbacks: { signIn: () => undefined as any },
      providers: [
        Email({ sendVerificationRequest: ({ identifier }) => void sent.push(identifier) }),
      ],
    })
    const { response } = await requestLink(config, uniqueAddress(), { providerId: "email" })
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    expect(sent).toEqual([])
  })
})

describe("e-mail sign-in: a signIn callback that throws", () => {
  test("ends in AccessDenied before any mail, as in every other flow; the cause is logged", async () => {
    const sent: string[] = []
    const backend = memoryBackend()
    const { config, log } = makeConfig({
      debug: true,
      adapter: backend.adapter,
      callbacks: {
        signIn: () => {
          throw new Error("directory lookup failed")
        },
      },
      providers: [
        Email({ sendVerificationRequest: ({ identifier }) => void sent.push(identifier) }),
      ],
    })
    const { response } = await requestLink(config, uniqueAddress(), { providerId: "email" })
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    expect(sent).toEqual([])
    expect(await backend.tokens()).toEqual([])
    // The app's fault is logged as an error; the refusal itself at debug.
    expect(log.errors.map((e) => e.message)).toEqual(["directory lookup failed"])
    expect(log.refusals.map((e) => (e as { type?: string }).type)).toEqual(["AccessDenied"])
  })
})

describe("e-mail sign-in: the adapter methods it needs", () => {
  test("token methods, getUserByEmail and createUser are enough", async () => {
    const { adapter } = memoryBackend()
    const minimal = {
      createVerificationToken: adapter.createVerificationToken!.bind(adapter),
      useVerificationToken: adapter.useVerificationToken!.bind(adapter),
      getUserByEmail: adapter.getUserByEmail.bind(adapter),
      createUser: adapter.createUser.bind(adapter),
    }
    const links: string[] = []
    const { config, log } = makeConfig({
      adapter: minimal as any,
      session: { strategy: "jwt" },
      providers: [Email({ sendVerificationRequest: ({ url }) => void links.push(url) })],
    })
    const address = uniqueAddress()
    const { response } = await requestLink(config, address, { providerId: "email" })
    expect(response.headers.get("location")).toContain("/auth/verify-request")
    const { response: done } = await follow(config, links[0]!)
    expect(done.status).toBe(302)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/`)
    expect(setCookie(done, sessionCookieName())?.value).toBeTruthy()
    expect(log.errors).toEqual([])
  })

  test("without one of them the configuration error names the missing method", async () => {
    const { adapter } = memoryBackend()
    const { config, log } = makeConfig({
      adapter: { getUserByEmail: adapter.getUserByEmail.bind(adapter) } as any,
      session: { strategy: "jwt" },
      providers: [Email({ sendVerificationRequest: () => {} })],
    })
    const response = await Auth(get("/auth/providers"), config)
    expect(response.status).toBe(500)
    expect(log.errors[0]?.message).toMatch(/createVerificationToken/)
  })
})

describe("e-mail sign-in: a URL from the signIn callback goes through `redirect`", () => {
  test("an off-site URL lands on the origin, as in every other flow", async () => {
    const { config } = makeConfig({
      adapter: memoryBackend().adapter,
      callbacks: { signIn: () => "https://evil.example/phish" },
      providers: [Email({ sendVerificationRequest: () => {} })],
    })
    const { response } = await requestLink(config, uniqueAddress(), { providerId: "email" })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(ORIGIN)
  })
})
