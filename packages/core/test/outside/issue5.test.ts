/**
 * Issue 5 as an outside tester reads it (the issue text, the specification and docs/passkeys.md;
 * not the sources): the `webauthn-options` action, registration and authentication with a
 * software authenticator through `Auth()` with real `Request`s, authenticators stored in a real
 * SQLite file, and every refusal the issue lists.
 */
import { describe, expect, test, vi } from "vitest"
import type { AuthConfig } from "@tessera/core"
import Passkey from "@tessera/core/providers/passkey"
import WebAuthn from "@tessera/core/providers/webauthn"
import { MemoryAdapter, SoftAuthenticator } from "@tessera/testing"
import { Browser, ORIGIN } from "../harness/index.js"
import { outsideSetup } from "./setup.js"

const { log, sqlite, authConfig } = outsideSetup()

let serial = 0
const fresh = (name: string) => `${name}${++serial}${Date.now().toString(36)}@example.com`

async function passkeyConfig(extra: Partial<AuthConfig> = {}) {
  const adapter = await sqlite()
  const config = authConfig({
    adapter,
    providers: [Passkey()],
    ...extra,
  })
  return { adapter, config }
}

async function options(browser: Browser, query: string, provider = "passkey") {
  const response = await browser.fetch(`/auth/webauthn-options/${provider}?${query}`)
  const text = await response.text()
  return { response, status: response.status, body: text ? JSON.parse(text) : null }
}

async function answer(browser: Browser, action: string, data: unknown, provider = "passkey") {
  return browser.request(`/auth/callback/${provider}`, {
    body: { action, data: JSON.stringify(data), csrfToken: await browser.csrfToken() },
  })
}

const errorOf = (response: Response) =>
  new URL(response.headers.get("location") ?? "/", ORIGIN).searchParams.get("error")

/** Registers a fresh user's passkey; the browser is signed in after. */
async function register(config: AuthConfig, authenticator = new SoftAuthenticator()) {
  const browser = new Browser(config)
  const email = fresh("ada")
  const { body } = await options(browser, `action=register&email=${encodeURIComponent(email)}`)
  const data = authenticator.register(body.options, { origin: ORIGIN })
  const response = await answer(browser, "register", data)
  expect(response.status).toBe(302)
  expect(errorOf(response)).toBeNull()
  return { browser, email, authenticator, credentialId: data.id }
}

describe("webauthn-options", () => {
  test("register: { action, options } with rp, user, challenge; the challenge in an HttpOnly cookie; nothing written", async () => {
    const { adapter, config } = await passkeyConfig()
    const browser = new Browser(config)
    const email = fresh("reg")
    const { response, status, body } = await options(
      browser,
      `action=register&email=${encodeURIComponent(email)}`,
    )
    expect(status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/application\/json/)
    expect(body.action).toBe("register")
    expect(body.options.rp.id).toBe(new URL(ORIGIN).hostname)
    expect(body.options.user.name).toBe(email)
    expect(body.options.challenge).toMatch(/^[A-Za-z0-9_-]{43,}$/)
    expect(body.options.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "required",
    })
    const setCookie = response.headers.getSetCookie().join("\n")
    expect(setCookie).toMatch(/challenge=/)
    expect(setCookie).toMatch(/HttpOnly/i)
    expect(setCookie).not.toContain(body.options.challenge)
    expect(await adapter.db.selectFrom("users").selectAll().execute()).toEqual([])
  })

  test("authenticate: no credentials listed; automatic choice by e-mail and session", async () => {
    const { config } = await passkeyConfig()
    const browser = new Browser(config)
    const auth = await options(browser, "action=authenticate")
    expect(auth.status).toBe(200)
    expect(auth.body.action).toBe("authenticate")
    expect(auth.body.options.rpId).toBe(new URL(ORIGIN).hostname)
    expect(auth.body.options.allowCredentials ?? []).toEqual([])
    expect((await options(browser, "")).body.action).toBe("authenticate")
    expect((await options(browser, `email=${fresh("x")}`)).body.action).toBe("register")

    const { browser: signedIn } = await register(config)
    expect((await options(signedIn, "")).body.action).toBe("register")
  })

  test("a bad action, a registration without e-mail, a bad e-mail: 400", async () => {
    const { config } = await passkeyConfig()
    const browser = new Browser(config)
    expect((await options(browser, "action=delete")).status).toBe(400)
    expect((await options(browser, "action=register")).status).toBe(400)
    expect((await options(browser, "action=register&email=a@b@example.com")).status).toBe(400)
  })

  test("an unknown provider answers 404; without authenticator methods: MissingAdapterMethods", async () => {
    const { config } = await passkeyConfig()
    expect((await options(new Browser(config), "", "nope")).status).toBe(404)

    const { getAuthenticator: _, ...partial } = MemoryAdapter()
    const broken = new Browser({ ...config, adapter: partial as never })
    const response = await options(broken, "action=authenticate")
    expect(response.status).toBe(500)
    const logged = log.errors.splice(0).map((e) => `${e.name} ${e.message}`)
    expect(logged.join("\n")).toMatch(/MissingAdapterMethods/)
  })
})

describe("registration and authentication", () => {
  test("registration stores the authenticator and a webauthn account; authentication signs in and advances the counter", async () => {
    const { adapter, config } = await passkeyConfig()
    const { browser, email, authenticator, credentialId } = await register(config)
    expect((await browser.session()).user.email).toBe(email)

    const user = await adapter.getUserByEmail!(email)
    expect(user?.emailVerified).toBeNull()
    const stored = await adapter.getAuthenticator!(credentialId)
    expect(stored).toMatchObject({
      credentialID: credentialId,
      userId: user!.id,
      providerAccountId: credentialId,
      counter: 0,
      credentialBackedUp: expect.any(Boolean),
      credentialDeviceType: expect.any(String),
      transports: "internal",
    })
    expect(stored!.credentialPublicKey).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(
      await adapter.getUserByAccount!({ provider: "passkey", providerAccountId: credentialId }),
    ).toMatchObject({ id: user!.id })
    const accounts = await adapter.db.selectFrom("accounts").selectAll().execute()
    expect(accounts).toMatchObject([{ type: "webauthn", provider: "passkey" }])

    await browser.signOut()
    expect(await browser.session()).toBeNull()

    const { body } = await options(browser, "action=authenticate")
    const response = await answer(
      browser,
      "authenticate",
      authenticator.authenticate(body.options, { origin: ORIGIN }),
    )
    expect(response.status).toBe(302)
    expect(errorOf(response)).toBeNull()
    expect((await browser.session()).user.email).toBe(email)
    expect((await adapter.getAuthenticator!(credentialId))!.counter).toBe(1)
  })

  test("the general webauthn provider works the same under its own id", async () => {
    const { adapter, config } = await passkeyConfig({ providers: [WebAuthn()] })
    const browser = new Browser(config)
    const email = fresh("wa")
    const authenticator = new SoftAuthenticator()
    const { body } = await options(browser, `action=register&email=${email}`, "webauthn")
    const response = await answer(
      browser,
      "register",
      authenticator.register(body.options, { origin: ORIGIN }),
      "webauthn",
    )
    expect(errorOf(response)).toBeNull()
    expect((await browser.session()).user.email).toBe(email)
    expect(await adapter.db.selectFrom("authenticators").selectAll().execute()).toHaveLength(1)
  })

  test("a second account adds its own passkey without seeing the first's", async () => {
    const { adapter, config } = await passkeyConfig()
    const first = await register(config)
    const second = await register(config)
    const a = await adapter.getUserByEmail!(first.email)
    const b = await adapter.getUserByEmail!(second.email)
    expect(await adapter.listAuthenticatorsByUserId!(a!.id)).toHaveLength(1)
    expect(await adapter.listAuthenticatorsByUserId!(b!.id)).toHaveLength(1)
    const { body } = await options(second.browser, "action=register")
    expect(body.options.excludeCredentials ?? []).not.toContainEqual(
      expect.objectContaining({ id: first.credentialId }),
    )
  })
})

describe("refusals: error=Callback, no session, nothing stored", () => {
  async function signedOutWithPasskey() {
    const { adapter, config } = await passkeyConfig()
    const registered = await register(config)
    const browser = new Browser(config)
    return { adapter, config, ...registered, browser }
  }

  async function expectRefused(browser: Browser, response: Response) {
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!, ORIGIN)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("Callback")
    expect(await browser.session()).toBeNull()
  }

  test("a counter that goes backwards", async () => {
    const { adapter, browser, authenticator, credentialId } = await signedOutWithPasskey()
    let { body } = await options(browser, "action=authenticate")
    await answer(
      browser,
      "authenticate",
      authenticator.authenticate(body.options, { origin: ORIGIN, counter: 5 }),
    )
    await browser.signOut()
    ;({ body } = await options(browser, "action=authenticate"))
    const response = await answer(
      browser,
      "authenticate",
      authenticator.authenticate(body.options, { origin: ORIGIN, counter: 3 }),
    )
    await expectRefused(browser, response)
    expect((await adapter.getAuthenticator!(credentialId))!.counter).toBe(5)
  })

  test("an unknown credential", async () => {
    const { browser } = await signedOutWithPasskey()
    const stranger = new SoftAuthenticator()
    stranger.register(
      { rp: { id: new URL(ORIGIN).hostname }, user: { id: "eA" }, challenge: "AAAA" },
      { origin: ORIGIN },
    )
    const { body } = await options(browser, "action=authenticate")
    await expectRefused(
      browser,
      await answer(
        browser,
        "authenticate",
        stranger.authenticate(body.options, { origin: ORIGIN }),
      ),
    )
  })

  test("a wrong origin, a wrong rp id", async () => {
    const { browser, authenticator } = await signedOutWithPasskey()
    let { body } = await options(browser, "action=authenticate")
    await expectRefused(
      browser,
      await answer(
        browser,
        "authenticate",
        authenticator.authenticate(body.options, { origin: "https://evil.example" }),
      ),
    )
    ;({ body } = await options(browser, "action=authenticate"))
    await expectRefused(
      browser,
      await answer(
        browser,
        "authenticate",
        authenticator.authenticate(body.options, { origin: ORIGIN, rpId: "evil.example" }),
      ),
    )
  })

  test("a reused challenge: the same answer and cookie sent again", async () => {
    const { browser, authenticator, config } = await signedOutWithPasskey()
    const { body } = await options(browser, "action=authenticate")
    const data = authenticator.authenticate(body.options, { origin: ORIGIN })
    const copy = new Browser(config, ORIGIN, new (browser.jar.constructor as never)(browser.jar))
    const first = await answer(browser, "authenticate", data)
    expect(errorOf(first)).toBeNull()
    await expectRefused(copy, await answer(copy, "authenticate", data))
  })

  test("without user verification", async () => {
    const { config } = await passkeyConfig()
    const browser = new Browser(config)
    const { body } = await options(browser, `action=register&email=${fresh("uv")}`)
    const data = new SoftAuthenticator().register(body.options, {
      origin: ORIGIN,
      flags: 0x01 | 0x40,
    })
    await expectRefused(browser, await answer(browser, "register", data))
  })

  test("registering an address an account already uses: OAuthAccountNotLinked, code=passkey", async () => {
    const { adapter, config } = await passkeyConfig()
    const email = fresh("taken")
    await adapter.createUser!({ email, emailVerified: new Date() } as never)
    const browser = new Browser(config)
    const { body } = await options(browser, `action=register&email=${email}`)
    const response = await answer(
      browser,
      "register",
      new SoftAuthenticator().register(body.options, { origin: ORIGIN }),
    )
    const location = new URL(response.headers.get("location")!, ORIGIN)
    expect(location.searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect(location.searchParams.get("code")).toBe("passkey")
    expect(await browser.session()).toBeNull()
    expect(await adapter.db.selectFrom("authenticators").selectAll().execute()).toEqual([])
  })
})

describe("the challenge cookie and the callback's edges", () => {
  test("the challenge cookie: configurable through cookies.webauthnChallenge, cleared once used", async () => {
    const { config } = await passkeyConfig({
      cookies: {
        webauthnChallenge: {
          name: "my-challenge",
          options: { httpOnly: true, sameSite: "lax", path: "/", secure: false },
        },
      },
    })
    const browser = new Browser(config)
    const { response, body } = await options(browser, `action=register&email=${fresh("ck")}`)
    const set = response.headers.getSetCookie().find((c) => c.startsWith("my-challenge="))
    expect(set).toBeDefined()
    expect(set).toMatch(/HttpOnly/i)
    expect(set).toMatch(/Max-Age=\d+/i)
    const done = await answer(
      browser,
      "register",
      new SoftAuthenticator().register(body.options, { origin: ORIGIN }),
    )
    expect(errorOf(done)).toBeNull()
    expect(browser.jar.get("my-challenge") ?? "").toBe("")
  })

  test("an answer without the challenge cookie: error=Callback, no session", async () => {
    const { config } = await passkeyConfig()
    const browser = new Browser(config)
    const { body } = await options(browser, `action=register&email=${fresh("nc")}`)
    const data = new SoftAuthenticator().register(body.options, { origin: ORIGIN })
    const stranger = new Browser(config)
    const noCookie = await answer(stranger, "register", data)
    expect(noCookie.status).toBeLessThan(500)
    expect(errorOf(noCookie)).toBe("Callback")
    expect(await stranger.session()).toBeNull()
  })

  test("X-Auth-Return-Redirect: 1 answers { url } instead of redirecting", async () => {
    const { config } = await passkeyConfig()
    const browser = new Browser(config)
    const { body } = await options(browser, `action=register&email=${fresh("xr")}`)
    const data = new SoftAuthenticator().register(body.options, { origin: ORIGIN })
    const response = await browser.fetch("/auth/callback/passkey", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-auth-return-redirect": "1",
      },
      body: new URLSearchParams({
        action: "register",
        data: JSON.stringify(data),
        csrfToken: await browser.csrfToken(),
        callbackUrl: "/home",
      }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ url: `${ORIGIN}/home` })
    expect(await browser.session()).not.toBeNull()
  })

  test("without an adapter: MissingAdapter at start", async () => {
    const browser = new Browser(
      authConfig({
        providers: [Passkey()],
      }),
    )
    const response = await options(browser, "action=authenticate")
    expect(response.status).toBe(500)
    expect(
      log.errors
        .splice(0)
        .map((e) => `${e.name} ${e.message}`)
        .join("\n"),
    ).toMatch(/MissingAdapter/)
  })
})

describe("adding a passkey to the signed-in user", () => {
  test("registration while signed in attaches to that user; events createUser once, linkAccount twice", async () => {
    const fired: string[] = []
    const { adapter, config } = await passkeyConfig({
      events: {
        createUser: () => void fired.push("createUser"),
        linkAccount: () => void fired.push("linkAccount"),
      },
    })
    const { browser, email } = await register(config)
    const { status, body } = await options(browser, "")
    expect(status).toBe(200)
    expect(body.action).toBe("register")
    const second = new SoftAuthenticator().register(body.options, { origin: ORIGIN })
    const response = await answer(browser, "register", second)
    expect(errorOf(response)).toBeNull()
    expect((await browser.session()).user.email).toBe(email)
    const user = await adapter.getUserByEmail!(email)
    expect(await adapter.listAuthenticatorsByUserId!(user!.id)).toHaveLength(2)
    expect(await adapter.db.selectFrom("users").selectAll().execute()).toHaveLength(1)
    expect(fired).toEqual(["createUser", "linkAccount", "linkAccount"])
  })

  test("an old session asking to add a passkey: 403 RecentSignInRequired; authenticate still answers", async () => {
    const { config } = await passkeyConfig({ session: { recentSignInAge: 60 } })
    const { browser } = await register(config)
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 120_000)
    const stale = await options(browser, "action=register")
    expect(stale.status).toBe(403)
    expect(stale.body).toMatchObject({ error: "RecentSignInRequired" })
    expect((await options(browser, "action=authenticate")).status).toBe(200)
  })
})

describe("the relying party", () => {
  test("defaults from the request URL; a configured id, name and several origins", async () => {
    const defaults = await passkeyConfig()
    const { body } = await options(
      new Browser(defaults.config),
      `action=register&email=${fresh("rp")}`,
    )
    expect(body.options.rp).toEqual({ id: "localhost", name: new URL(ORIGIN).host })

    const other = "http://localhost:4000"
    const { config } = await passkeyConfig({
      providers: [
        Passkey({
          relayingParty: { id: "localhost", name: "Acme", origin: [ORIGIN, other] },
        }),
      ],
    })
    const browser = new Browser(config)
    const registration = await options(browser, `action=register&email=${fresh("rp")}`)
    expect(registration.body.options.rp).toEqual({ id: "localhost", name: "Acme" })
    const authenticator = new SoftAuthenticator()
    const done = await answer(
      browser,
      "register",
      authenticator.register(registration.body.options, { origin: other }),
    )
    expect(errorOf(done)).toBeNull()
    await browser.signOut()
    const { body: auth } = await options(browser, "action=authenticate")
    const refused = await answer(
      browser,
      "authenticate",
      authenticator.authenticate(auth.options, { origin: "http://localhost:4001" }),
    )
    expect(errorOf(refused)).toBe("Callback")
  })

  test("an assertion without user verification is refused", async () => {
    const { config } = await passkeyConfig()
    const { authenticator } = await register(config)
    const browser = new Browser(config)
    const { body } = await options(browser, "action=authenticate")
    const data = authenticator.authenticate(body.options, { origin: ORIGIN, flags: 0x01 })
    const response = await answer(browser, "authenticate", data)
    expect(errorOf(response)).toBe("Callback")
    expect(await browser.session()).toBeNull()
  })
})

describe("an unverified passkey claim meets an e-mail sign-in", () => {
  test("the proven address gets its own user; the claim is released (events.updateUser)", async () => {
    const { default: Email } = await import("@tessera/core/providers/email")
    const links: string[] = []
    const updated: unknown[] = []
    const { adapter, config } = await passkeyConfig({
      providers: [Passkey(), Email({ sendVerificationRequest: ({ url }) => void links.push(url) })],
      events: { updateUser: ({ user }) => void updated.push(user) },
    })
    const { email } = await register(config)
    const claimant = await adapter.getUserByEmail!(email)
    expect(claimant?.emailVerified).toBeNull()

    const owner = new Browser(config)
    await owner.request("/auth/signin/email", {
      body: { email, csrfToken: await owner.csrfToken() },
    })
    const link = new URL(links[0]!)
    const done = await owner.request(link.pathname + link.search)
    expect(errorOf(done)).toBeNull()
    expect((await owner.session()).user.email).toBe(email)
    const proven = await adapter.getUserByEmail!(email)
    expect(proven?.id).not.toBe(claimant!.id)
    expect(proven?.emailVerified).toBeInstanceOf(Date)
    expect((await adapter.getUser!(claimant!.id))?.email ?? null).toBeNull()
    expect(updated).toMatchObject([{ id: claimant!.id }])
  })
})

describe("a callback body that is no passkey answer", () => {
  test.each([
    ["an unknown action", "bogus", (data: unknown) => JSON.stringify(data)],
    ["a registration sent as an authentication", "authenticate", (d: unknown) => JSON.stringify(d)],
    ["data that is not JSON", "register", () => "{not json"],
    ["data of the wrong shape", "register", () => JSON.stringify({ id: "x" })],
  ])("%s: 400 InvalidRequest JSON, no session", async (_, action, dataOf) => {
    const { config } = await passkeyConfig()
    const browser = new Browser(config)
    const { body } = await options(browser, `action=register&email=${fresh("bad")}`)
    const data = new SoftAuthenticator().register(body.options, { origin: ORIGIN })
    const response = await browser.request("/auth/callback/passkey", {
      body: { action, data: dataOf(data), csrfToken: await browser.csrfToken() },
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: "InvalidRequest" })
    expect(await browser.session()).toBeNull()
  })
})
