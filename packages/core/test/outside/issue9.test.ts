/**
 * Issue 9 as an outside tester reads it (the issue text, SECURITY.md, README "Hosts and
 * proxies", docs/configuration.md, docs/databases.md "Users and account linking",
 * docs/providers.md, the provider list; not the sources): each attack replayed as an attacker
 * sends it, through `Auth()` with real `Request`s, a real SQLite file, a real SMTP sink, a
 * local OpenID provider and a software authenticator; asserting the safe behaviour the issue
 * asks for.
 */
import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { promisify } from "node:util"
import { sql } from "kysely"
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest"
import { Auth, createActionURL, type AuthConfig } from "@tessera/core"
import Discord from "@tessera/core/providers/discord"
import Google from "@tessera/core/providers/google"
import Keycloak from "@tessera/core/providers/keycloak"
import MicrosoftEntraID from "@tessera/core/providers/microsoft-entra-id"
import Nodemailer from "@tessera/core/providers/nodemailer"
import Okta from "@tessera/core/providers/okta"
import Passkey from "@tessera/core/providers/passkey"
import Slack from "@tessera/core/providers/slack"
import VK from "@tessera/core/providers/vk"
import type { SqlAdapterInstance } from "@tessera/sql"
import {
  completeOidcLogin,
  localOidcProvider,
  SoftAuthenticator,
  startMailSink,
  startOidcProvider,
  type MailSink,
  type OidcProviderServer,
} from "@tessera/testing"
import { Browser, credentialsProvider, ORIGIN, SECRET, setCookies } from "../harness/index.js"
import { outsideSetup } from "./setup.js"

const { log, sqlite, authConfig } = outsideSetup()

const CANONICAL = "https://app.example.com"
const ATTACKER_HOST = "app.example.com.attacker.test"

let serial = 0
const fresh = (name: string) => `${name}${++serial}${Date.now().toString(36)}@example.org`

let sink: MailSink
let idp: OidcProviderServer
beforeAll(async () => {
  sink = await startMailSink()
  idp = await startOidcProvider({
    redirectUris: [
      `${ORIGIN}/auth/callback/local`,
      `${CANONICAL}/auth/callback/local`,
      "https://pr-1.preview.example.com/auth/callback/local",
    ],
    accounts: {
      mallory: { email: "victim-oidc@example.org", email_verified: false },
      verifiedvictim: { email: "victim-linked@example.org", email_verified: true },
      unverifiedvictim: { email: "victim-linked@example.org", email_verified: false },
      shouty: { email: "  Ada.Case@Example.COM ", email_verified: true },
      kelvin: { email: "\u212Aate@example.org", email_verified: true },
    },
  })
})
afterAll(async () => {
  await sink?.stop()
  await idp?.stop()
})

/** Exposes the user id in the session, as Auth.js apps commonly do. */
const exposeId: AuthConfig["callbacks"] = {
  session({ session, user, token }) {
    const id = user?.id ?? (token?.sub as string | undefined)
    if (session.user && id) (session.user as { id?: string }).id = id
    return session
  },
}

const mailer = () => Nodemailer({ server: sink.url, from: "app@example.com" })

const linkIn = (text: string) => /https?:\/\/\S+\/auth\/callback\/nodemailer\?\S+/.exec(text)![0]

/** Asks for a sign-in link; returns the response and the mail (if one went out). */
async function askLink(browser: Browser, email: string, headers: Record<string, string> = {}) {
  const seen = sink.messages.length
  const csrfToken = await browser.csrfToken()
  const response = await browser.request("/auth/signin/nodemailer", {
    body: { email, csrfToken },
    headers,
  })
  return { response, seen }
}

async function mailFor(email: string, seen: number) {
  return sink.waitForMessage((m) => sink.messages.indexOf(m) >= seen && m.to.includes(email))
}

/** Signs `email` in by mailed link in `browser`. */
async function signInByLink(browser: Browser, email: string) {
  const { response, seen } = await askLink(browser, email)
  expect(response.status).toBe(302)
  const mail = await mailFor(email, seen)
  const link = new URL(linkIn(mail.text))
  const done = await browser.request(link.pathname + link.search)
  expect(done.status).toBe(302)
  return done
}

async function webauthnOptions(browser: Browser, query: string) {
  const response = await browser.fetch(`/auth/webauthn-options/passkey?${query}`)
  const text = await response.text()
  return { response, status: response.status, body: text ? JSON.parse(text) : null }
}

async function passkeyAnswer(browser: Browser, action: string, data: unknown) {
  return browser.request("/auth/callback/passkey", {
    body: { action, data: JSON.stringify(data), csrfToken: await browser.csrfToken() },
  })
}

const errorOf = (response: Response) =>
  new URL(response.headers.get("location") ?? "/", ORIGIN).searchParams.get("error")

/** Every row of every table (migrations bookkeeping aside): what a write would change. */
async function allRows(adapter: SqlAdapterInstance): Promise<string> {
  const tables = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'kysely%'
  `.execute(adapter.db)
  const rows: Record<string, unknown> = {}
  for (const { name } of tables.rows)
    rows[name] = (await sql.raw(`select * from "${name}"`).execute(adapter.db)).rows
  return JSON.stringify(rows)
}

async function accountsOf(adapter: SqlAdapterInstance, userId: string) {
  const rows = (await sql.raw(`select * from accounts`).execute(adapter.db)).rows as Record<
    string,
    unknown
  >[]
  return rows.filter((r) => (r.user_id ?? r.userId) === userId)
}

/** Signs in at the local IdP as `accountId`, starting in `browser`; returns the callback answer. */
async function oidcSignIn(browser: Browser, accountId: string, jar = new Map<string, string>()) {
  const start = await browser.startSignIn("local")
  expect(start.status).toBe(302)
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId, jar })
  return browser.request(back.url.pathname + back.url.search)
}

// ---------------------------------------------------------------------------------------------
describe("High: the client never chooses the origin of the URLs Tessera builds", () => {
  async function canonicalMailConfig(extra: Partial<AuthConfig> = {}) {
    const adapter = await sqlite()
    return {
      adapter,
      config: authConfig({ url: `${CANONICAL}/auth`, adapter, providers: [mailer()], ...extra }),
    }
  }

  test("url set: X-Forwarded-Host on signin/email mails a link on the canonical origin only", async () => {
    const { config } = await canonicalMailConfig()
    const browser = new Browser(config, CANONICAL)
    const email = fresh("victim")
    const { response, seen } = await askLink(browser, email, {
      "x-forwarded-host": ATTACKER_HOST,
      "x-forwarded-proto": "https",
    })
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).origin).toBe(CANONICAL)
    const mail = await mailFor(email, seen)
    expect(mail.text + mail.html).not.toContain("attacker")
    expect(new URL(linkIn(mail.text)).origin).toBe(CANONICAL)
  })

  test("AUTH_URL set: the same attack mails a link on AUTH_URL's origin", async () => {
    vi.stubEnv("AUTH_URL", `${CANONICAL}/auth`)
    try {
      const adapter = await sqlite()
      const config = authConfig({ adapter, providers: [mailer()] })
      const browser = new Browser(config, CANONICAL)
      const email = fresh("victim")
      const { response, seen } = await askLink(browser, email, {
        "x-forwarded-host": ATTACKER_HOST,
      })
      expect(response.status).toBe(302)
      const mail = await mailFor(email, seen)
      expect(new URL(linkIn(mail.text)).origin).toBe(CANONICAL)
      expect(mail.text + mail.html).not.toContain("attacker")
    } finally {
      vi.unstubAllEnvs()
    }
  })

  test("AUTH_URL with an explicit trustHost: false: its host works, another host gets 400", async () => {
    vi.stubEnv("AUTH_URL", `${CANONICAL}/auth`)
    try {
      const config = authConfig({ trustHost: false, providers: [credentialsProvider()] })
      expect((await new Browser(config, CANONICAL).fetch("/auth/session")).status).toBe(200)
      const other = await new Browser(config, `https://${ATTACKER_HOST}`).fetch("/auth/session")
      expect(other.status).toBe(400)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  test("url set: a request that arrives on another Host (a forged Host header) builds nothing on it", async () => {
    const { config } = await canonicalMailConfig()
    const browser = new Browser(config, `https://${ATTACKER_HOST}`)
    const email = fresh("victim")
    const { response, seen } = await askLink(browser, email)
    expect([302, 400]).toContain(response.status)
    if (response.status === 302) {
      expect(new URL(response.headers.get("location")!).host).not.toBe(ATTACKER_HOST)
      const mail = await mailFor(email, seen)
      expect(new URL(linkIn(mail.text)).origin).toBe(CANONICAL)
    } else {
      expect(sink.messages.slice(seen).filter((m) => m.to.includes(email))).toEqual([])
    }
  })

  test("url set: default redirects and the built-in pages' form actions ignore a forged host", async () => {
    const config = authConfig({
      url: `${CANONICAL}/auth`,
      providers: [credentialsProvider(), { ...localOidcProvider(idp) }],
    })
    const forged = { "x-forwarded-host": ATTACKER_HOST, "x-forwarded-proto": "https" }
    const browser = new Browser(config, CANONICAL)
    for (const page of ["/auth/signin", "/auth/signout", "/auth/error", "/auth/verify-request"]) {
      const response = await browser.request(page, { headers: forged })
      const html = await response.text()
      expect(html, page).not.toContain("attacker")
    }
    const csrfToken = await browser.csrfToken()
    const signedIn = await browser.request("/auth/callback/credentials", {
      body: { username: "ada", password: "correct horse", csrfToken },
      headers: forged,
    })
    expect(signedIn.status).toBe(302)
    expect(new URL(signedIn.headers.get("location")!).origin).toBe(CANONICAL)
    // The forged host named as callbackUrl too: it is not "the app's origin" either.
    for (const callbackUrl of [`https://${ATTACKER_HOST}/x`, `//${ATTACKER_HOST}/x`]) {
      const again = await browser.request("/auth/callback/credentials", {
        body: { username: "ada", password: "correct horse", csrfToken, callbackUrl },
        headers: forged,
      })
      expect(new URL(again.headers.get("location")!).origin, callbackUrl).toBe(CANONICAL)
    }
    const start = await browser.request("/auth/signin/local", {
      body: { csrfToken: await browser.csrfToken() },
      headers: forged,
    })
    expect(start.status).toBe(302)
    const authorize = new URL(start.headers.get("location")!)
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${CANONICAL}/auth/callback/local`)
    const out = await browser.request("/auth/signout", {
      body: { csrfToken: await browser.csrfToken() },
      headers: { ...forged, origin: CANONICAL },
    })
    expect(new URL(out.headers.get("location")!).origin).toBe(CANONICAL)
  })

  test("trustHost: false with a canonical origin works; another host gets 400 UntrustedHost, not 500", async () => {
    const { config } = await canonicalMailConfig({ trustHost: false })
    const good = new Browser(config, CANONICAL)
    expect((await good.fetch("/auth/session")).status).toBe(200)
    expect((await good.fetch("/auth/signin")).status).toBe(200)
    const email = fresh("ok")
    const { response, seen } = await askLink(good, email)
    expect(response.status).toBe(302)
    expect(new URL(linkIn((await mailFor(email, seen)).text)).origin).toBe(CANONICAL)

    const other = new Browser(config, `https://${ATTACKER_HOST}`)
    for (const path of ["/auth/session", "/auth/signin", "/auth/csrf"]) {
      const answer = await other.fetch(path)
      expect(answer.status, path).toBe(400)
      expect(await answer.text(), path).toMatch(/UntrustedHost/)
    }
  })

  describe("without a canonical origin: trustHost + allowedHosts", () => {
    async function previewConfig(extra: Partial<AuthConfig> = {}) {
      const adapter = await sqlite()
      return {
        adapter,
        config: authConfig({
          adapter,
          providers: [mailer()],
          allowedHosts: ["app.example.com", "*.preview.example.com"],
          ...extra,
        }),
      }
    }

    test("a host outside the allow-list gets 400 UntrustedHost and no link, no token row", async () => {
      const { adapter, config } = await previewConfig()
      const rowsBefore = await allRows(adapter)
      for (const host of [
        ATTACKER_HOST,
        "preview.example.com.attacker.test",
        "evilpreview.example.com",
        "app.example.com:1@attacker.test",
      ]) {
        const browser = new Browser(config, "https://app.example.com")
        const email = fresh("victim")
        // The CSRF token comes from an allowed host; the sign-in carries the forged one.
        const csrfToken = await browser.csrfToken()
        const seen = sink.messages.length
        const response = await browser.request("/auth/signin/nodemailer", {
          body: { email, csrfToken },
          headers: { "x-forwarded-host": host, "x-forwarded-proto": "https" },
        })
        expect(response.status, host).toBe(400)
        // A host that does not even parse is a malformed request (InvalidRequest): still no link.
        expect(await response.text(), host).toMatch(
          host.includes("@") ? /UntrustedHost|InvalidRequest/ : /UntrustedHost/,
        )
        await new Promise((resolve) => setTimeout(resolve, 50))
        expect(sink.messages.slice(seen).filter((m) => m.to.includes(email))).toEqual([])
      }
      expect(await allRows(adapter)).toBe(rowsBefore)
    })

    test("an allowed host (exact or wildcard) builds its links on itself", async () => {
      const { config } = await previewConfig()
      const browser = new Browser(config, "https://pr-7.preview.example.com")
      const email = fresh("ok")
      const { response, seen } = await askLink(browser, email)
      expect(response.status).toBe(302)
      const link = new URL(linkIn((await mailFor(email, seen)).text))
      expect(link.origin).toBe("https://pr-7.preview.example.com")
    })

    test("X-Forwarded-Proto other than http/https is a 400", async () => {
      const { config } = await previewConfig()
      const browser = new Browser(config, "https://app.example.com")
      for (const proto of ["javascript", "ftp", "file"]) {
        const response = await browser.fetch("/auth/signin", {
          headers: { "x-forwarded-proto": proto },
        })
        expect(response.status, proto).toBe(400)
      }
    })

    test("AUTH_ALLOWED_HOSTS bounds the hosts the same way", async () => {
      vi.stubEnv("AUTH_ALLOWED_HOSTS", "app.example.com,*.preview.example.com")
      try {
        const adapter = await sqlite()
        const config = authConfig({ adapter, providers: [mailer()] })
        const browser = new Browser(config, "https://app.example.com")
        const csrfToken = await browser.csrfToken()
        const bad = await browser.request("/auth/signin/nodemailer", {
          body: { email: fresh("victim"), csrfToken },
          headers: { "x-forwarded-host": ATTACKER_HOST },
        })
        expect(bad.status).toBe(400)
        expect(await bad.text()).toMatch(/UntrustedHost/)
        const good = new Browser(config, "https://pr-2.preview.example.com")
        expect((await good.fetch("/auth/session")).status).toBe(200)
      } finally {
        vi.unstubAllEnvs()
      }
    })
  })

  describe("redirect proxy", () => {
    const PROXY = `${CANONICAL}/auth`
    const oidc = () => ({ ...localOidcProvider(idp), redirectProxyUrl: PROXY })

    async function stateFrom(config: AuthConfig, origin: string, headers = {}) {
      const browser = new Browser(config, origin)
      const start = await browser.request("/auth/signin/local", {
        body: { csrfToken: await browser.csrfToken() },
        headers,
      })
      return start
    }

    test("a preview on an allowed host is forwarded to; one the proxy does not allow is not", async () => {
      const stable = authConfig({
        url: PROXY,
        redirectProxyUrl: PROXY,
        allowedHosts: ["*.preview.example.com"],
        providers: [oidc()],
      })
      const preview = authConfig({
        redirectProxyUrl: PROXY,
        allowedHosts: ["*.preview.example.com", "*.elsewhere.test"],
        providers: [oidc()],
      })

      const ok = await stateFrom(preview, "https://pr-1.preview.example.com")
      expect(ok.status).toBe(302)
      const okUrl = new URL(ok.headers.get("location")!)
      expect(okUrl.searchParams.get("redirect_uri")).toBe(`${PROXY}/callback/local`)
      const okState = okUrl.searchParams.get("state")!
      const forwarded = await Auth(
        new Request(`${PROXY}/callback/local?code=abc&state=${encodeURIComponent(okState)}`),
        stable,
      )
      expect(forwarded.status).toBe(302)
      expect(new URL(forwarded.headers.get("location")!).origin).toBe(
        "https://pr-1.preview.example.com",
      )

      const far = await stateFrom(preview, "https://x.elsewhere.test")
      expect(far.status).toBe(302)
      const farState = new URL(far.headers.get("location")!).searchParams.get("state")!
      const refused = await Auth(
        new Request(`${PROXY}/callback/local?code=abc&state=${encodeURIComponent(farState)}`),
        stable,
      )
      const location = refused.headers.get("location")
      if (location) expect(new URL(location, CANONICAL).host).not.toBe("x.elsewhere.test")
      expect(refused.status).not.toBe(500)
      log.errors.splice(0) // the code is fake: whatever the stable deployment did with it
    })

    test("a preview refuses to start a sign-in for a host it does not allow (nothing goes in the state)", async () => {
      const preview = authConfig({
        redirectProxyUrl: PROXY,
        allowedHosts: ["*.preview.example.com"],
        providers: [oidc()],
      })
      const browser = new Browser(preview, "https://pr-1.preview.example.com")
      const csrfToken = await browser.csrfToken()
      const start = await browser.request("/auth/signin/local", {
        body: { csrfToken },
        headers: { "x-forwarded-host": ATTACKER_HOST },
      })
      expect(start.status).toBe(400)
    })

    test("on the canonical deployment a forged host never becomes a forwarding target", async () => {
      const stable = authConfig({ url: PROXY, redirectProxyUrl: PROXY, providers: [oidc()] })
      const start = await stateFrom(stable, CANONICAL, { "x-forwarded-host": ATTACKER_HOST })
      expect(start.status).toBe(302)
      const state = new URL(start.headers.get("location")!).searchParams.get("state")!
      const back = await Auth(
        new Request(`${PROXY}/callback/local?code=abc&state=${encodeURIComponent(state)}`),
        stable,
      )
      const location = back.headers.get("location") ?? ""
      expect(location).not.toContain("attacker")
      log.errors.splice(0)
    })
  })

  describe("createActionURL", () => {
    const headers = (host: string, more: Record<string, string> = {}) =>
      new Headers({ host, ...more })

    test("with a canonical URL: built on it whatever Host / X-Forwarded-Host say", () => {
      const url = createActionURL(
        "signin",
        "https",
        headers(ATTACKER_HOST, { "x-forwarded-host": ATTACKER_HOST }),
        {},
        { url: `${CANONICAL}/auth`, trustHost: true },
      )
      expect(url.origin).toBe(CANONICAL)
      expect(url.pathname).toBe("/auth/signin")
    })

    test("without one: untrusted or not-allowed hosts throw UntrustedHost; allowed hosts work", () => {
      expect(() => createActionURL("signin", "https", headers(ATTACKER_HOST), {}, {})).toThrow(
        /UntrustedHost|trust/i,
      )
      const bounded = { trustHost: true, allowedHosts: ["*.preview.example.com"] }
      expect(() => createActionURL("signin", "https", headers(ATTACKER_HOST), {}, bounded)).toThrow(
        /UntrustedHost|host/i,
      )
      expect(() =>
        createActionURL(
          "signin",
          "https",
          headers("pr-1.preview.example.com", { "x-forwarded-host": ATTACKER_HOST }),
          {},
          bounded,
        ),
      ).toThrow(/UntrustedHost|host/i)
      const ok = createActionURL(
        "session",
        "https",
        headers("pr-1.preview.example.com"),
        {},
        bounded,
      )
      expect(ok.href).toBe("https://pr-1.preview.example.com/auth/session")
    })

    test("the environment given (AUTH_URL, AUTH_TRUST_HOST, AUTH_ALLOWED_HOSTS) decides the same way", () => {
      const forged = headers(ATTACKER_HOST, { "x-forwarded-host": ATTACKER_HOST })
      expect(
        createActionURL("signin", "https", forged, { AUTH_URL: `${CANONICAL}/auth` }, {}).origin,
      ).toBe(CANONICAL)
      expect(() =>
        createActionURL(
          "signin",
          "https",
          forged,
          { AUTH_TRUST_HOST: "true", AUTH_ALLOWED_HOSTS: "app.example.com" },
          {},
        ),
      ).toThrow(/UntrustedHost|host/i)
      expect(
        createActionURL(
          "signin",
          "https",
          headers("app.example.com"),
          { AUTH_TRUST_HOST: "true", AUTH_ALLOWED_HOSTS: "app.example.com" },
          {},
        ).href,
      ).toBe("https://app.example.com/auth/signin")
    })

    test("protocol other than http/https, and malformed hosts, are refused", () => {
      const trusted = { trustHost: true }
      for (const protocol of ["javascript", "file:", "ftp", "data"])
        expect(() =>
          createActionURL("signin", protocol, headers("app.example.com"), {}, trusted),
        ).toThrow()
      // (An empty X-Forwarded-Host is no header: Host decides.)
      for (const host of ["evil.test/@app.example.com", "app.example.com@evil.test", "a b"])
        expect(() =>
          createActionURL(
            "signin",
            "https",
            headers("app.example.com", { "x-forwarded-host": host }),
            {},
            trusted,
          ),
        ).toThrow()
    })
  })
})

/** The attacker registers a passkey for `email` (an address they do not own): a claim. */
async function claimByPasskey(config: AuthConfig, email: string) {
  const attacker = new Browser(config)
  const authenticator = new SoftAuthenticator()
  const { body } = await webauthnOptions(
    attacker,
    `action=register&email=${encodeURIComponent(email)}`,
  )
  const registered = await passkeyAnswer(
    attacker,
    "register",
    authenticator.register(body.options, { origin: ORIGIN }),
  )
  return { attacker, authenticator, registered }
}

/** A fresh browser signed in (or refused) with `authenticator`'s passkey. */
async function passkeySignIn(config: AuthConfig, authenticator: SoftAuthenticator) {
  const browser = new Browser(config)
  const { body } = await webauthnOptions(browser, "action=authenticate")
  await passkeyAnswer(
    browser,
    "authenticate",
    authenticator.authenticate(body.options, { origin: ORIGIN }),
  )
  return browser
}

// ---------------------------------------------------------------------------------------------
describe("High: pre-account takeover (an address nobody proved never identifies an account)", () => {
  test("passkey sign-up for the victim's address: the victim's link sign-in never lands in the attacker's account", async () => {
    const adapter = await sqlite()
    const config = authConfig({
      adapter,
      providers: [Passkey(), mailer()],
      callbacks: exposeId,
    })
    const victimEmail = fresh("victim")

    // The attacker registers a passkey for the victim's address.
    const { attacker, authenticator, registered } = await claimByPasskey(config, victimEmail)
    expect(registered.status).toBe(302)
    const attackerSession = await attacker.session()
    const attackerId = attackerSession?.user?.id as string | undefined
    expect(attackerId).toBeTruthy()

    // The real owner signs in by magic link.
    const victim = new Browser(config)
    await signInByLink(victim, victimEmail)
    const victimSession = await victim.session()
    expect(victimSession.user.email).toBe(victimEmail)
    const victimId = victimSession.user.id as string
    expect(victimId).not.toBe(attackerId)

    // The victim's account has no passkey of the attacker's.
    const authenticators = (await sql.raw(`select * from authenticators`).execute(adapter.db))
      .rows as Record<string, unknown>[]
    expect(authenticators.filter((a) => (a.user_id ?? a.userId) === victimId)).toEqual([])

    // The attacker's old session ended with the claim (SECURITY.md: "the claiming account's
    // sessions end"); a fresh passkey sign-in: never the victim's account.
    expect(await attacker.session()).toBeNull()
    const later = await (await passkeySignIn(config, authenticator)).session()
    if (later) {
      expect(later.user.id).not.toBe(victimId)
      expect(later.user.email ?? null).not.toBe(victimEmail)
    }
    const holder = await adapter.getUserByEmail!(victimEmail)
    expect(holder?.id).toBe(victimId)
    expect(holder?.emailVerified).toBeInstanceOf(Date)
  })

  test("OIDC sign-up with email_verified: false: the victim's link sign-in never lands in the attacker's account", async () => {
    const adapter = await sqlite()
    const config = authConfig({
      adapter,
      providers: [localOidcProvider(idp), mailer()],
      callbacks: exposeId,
    })
    const attacker = new Browser(config)
    const attackerJar = new Map<string, string>()
    expect((await oidcSignIn(attacker, "mallory", attackerJar)).status).toBe(302)
    const attackerId = (await attacker.session())?.user?.id
    expect(attackerId).toBeTruthy()
    const claimed = await adapter.getUserByEmail!("victim-oidc@example.org")
    expect(claimed?.emailVerified ?? null).toBeNull()

    const victim = new Browser(config)
    await signInByLink(victim, "victim-oidc@example.org")
    const victimId = (await victim.session()).user.id
    expect(victimId).not.toBe(attackerId)
    expect(await accountsOf(adapter, victimId)).toEqual([])

    expect(await attacker.session()).toBeNull()
    const again = new Browser(config)
    await oidcSignIn(again, "mallory", attackerJar)
    const later = await again.session()
    if (later) expect(later.user.id).not.toBe(victimId)
  })

  test("passkey claim, then the owner signs in through an OIDC provider that verified the address: the passkey opens nothing of theirs", async () => {
    const adapter = await sqlite()
    const config = authConfig({
      adapter,
      providers: [Passkey(), localOidcProvider(idp)],
      callbacks: exposeId,
    })
    const { attacker, authenticator } = await claimByPasskey(config, "victim-linked@example.org")
    expect((await attacker.session())?.user).toBeTruthy()

    const victim = new Browser(config)
    const done = await oidcSignIn(victim, "verifiedvictim")
    expect(errorOf(done)).toBeNull()
    const victimId = (await victim.session()).user.id
    expect(await attacker.session()).toBeNull()
    const later = await (await passkeySignIn(config, authenticator)).session()
    if (later) expect(later.user.id).not.toBe(victimId)
  })

  test("passkey claim plus a linked OAuth account: after the owner proves the address, neither opens their account", async () => {
    const adapter = await sqlite()
    const config = authConfig({
      adapter,
      providers: [Passkey(), localOidcProvider(idp), mailer()],
      callbacks: exposeId,
    })
    const victimEmail = fresh("victim")
    const { attacker } = await claimByPasskey(config, victimEmail)
    const attackerId = (await attacker.session()).user.id
    // The attacker links an identity-provider account of theirs to the claim.
    const idpJar = new Map<string, string>()
    const linked = await oidcSignIn(attacker, "attackeridp", idpJar)
    expect(errorOf(linked)).toBeNull()
    expect(await accountsOf(adapter, attackerId)).toHaveLength(2) // webauthn + oidc

    const victim = new Browser(config)
    await signInByLink(victim, victimEmail)
    const victimId = (await victim.session()).user.id
    expect(victimId).not.toBe(attackerId)
    expect(await accountsOf(adapter, victimId)).toEqual([])

    const viaIdp = new Browser(config)
    await oidcSignIn(viaIdp, "attackeridp", idpJar)
    const session = await viaIdp.session()
    expect(session?.user.id).toBe(attackerId)
    expect(session?.user.email ?? null).toBeNull()
  })

  test("a second passkey sign-up for an address an account already holds is refused", async () => {
    const adapter = await sqlite()
    const config = authConfig({ adapter, providers: [Passkey()] })
    const email = fresh("taken")
    for (const [index, expected] of [
      [0, null],
      [1, "OAuthAccountNotLinked"],
    ] as const) {
      const browser = new Browser(config)
      const { body } = await webauthnOptions(
        browser,
        `action=register&email=${encodeURIComponent(email)}`,
      )
      const response = await passkeyAnswer(
        browser,
        "register",
        new SoftAuthenticator().register(body.options, { origin: ORIGIN }),
      )
      expect(errorOf(response), String(index)).toBe(expected)
      if (expected) expect(await browser.session()).toBeNull()
    }
    const users = (await sql.raw(`select * from users`).execute(adapter.db)).rows
    expect(users).toHaveLength(1)
  })

  test("OIDC: the victim proving the address through a provider that verifies it releases the attacker's claim", async () => {
    const adapter = await sqlite()
    const config = authConfig({
      adapter,
      providers: [localOidcProvider(idp)],
      callbacks: exposeId,
    })
    const attacker = new Browser(config)
    await oidcSignIn(attacker, "unverifiedvictim")
    const attackerId = (await attacker.session()).user.id
    const victim = new Browser(config)
    await oidcSignIn(victim, "verifiedvictim")
    const session = await victim.session()
    expect(session.user.id).not.toBe(attackerId)
    expect(session.user.email).toBe("victim-linked@example.org")
    expect((await adapter.getUser!(attackerId))?.email ?? null).toBeNull()
    expect(await attacker.session()).toBeNull()
  })

  test("passkey-first sign-up keeps working without an e-mail provider", async () => {
    const adapter = await sqlite()
    const config = authConfig({ adapter, providers: [Passkey()] })
    const browser = new Browser(config)
    const email = fresh("newcomer")
    const { status, body } = await webauthnOptions(
      browser,
      `action=register&email=${encodeURIComponent(email)}`,
    )
    expect(status).toBe(200)
    const response = await passkeyAnswer(
      browser,
      "register",
      new SoftAuthenticator().register(body.options, { origin: ORIGIN }),
    )
    expect(response.status).toBe(302)
    expect(errorOf(response)).toBeNull()
    expect((await browser.session())?.user).toBeTruthy()
  })
})

/** The local OpenID provider with e-mail linking allowed, beside e-mailed links, on a SQLite file. */
async function linkingConfig() {
  const adapter = await sqlite()
  const config = authConfig({
    adapter,
    providers: [{ ...localOidcProvider(idp), allowDangerousEmailAccountLinking: true }, mailer()],
    callbacks: exposeId,
  })
  return { adapter, config }
}

// ---------------------------------------------------------------------------------------------
describe("Medium: verified e-mail and account linking", () => {
  test("allowDangerousEmailAccountLinking: an unverified OIDC address is never linked to the victim", async () => {
    const { adapter, config } = await linkingConfig()
    const victim = new Browser(config)
    await signInByLink(victim, "victim-linked@example.org")
    const victimId = (await victim.session()).user.id

    const attacker = new Browser(config)
    const response = await oidcSignIn(attacker, "unverifiedvictim")
    expect(response.status).toBe(302)
    expect(errorOf(response)).toBe("OAuthAccountNotLinked")
    expect(await accountsOf(adapter, victimId)).toEqual([])
    expect(await attacker.session()).toBeNull()
  })

  test("a generic OAuth 2 provider vouches for nothing: even email_verified: true in its profile never links", async () => {
    const discovery = (await (
      await fetch(`${idp.issuer}/.well-known/openid-configuration`)
    ).json()) as Record<string, string>
    const adapter = await sqlite()
    const config = authConfig({
      adapter,
      providers: [
        {
          id: "local",
          name: "Plain OAuth",
          issuer: idp.issuer,
          type: "oauth",
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
          authorization: {
            url: discovery.authorization_endpoint!,
            params: { scope: "openid email profile" },
          },
          token: discovery.token_endpoint!,
          userinfo: discovery.userinfo_endpoint!,
          checks: ["pkce", "state"],
          allowDangerousEmailAccountLinking: true,
          dangerouslyAllowInsecureHttpRequests: true,
        },
        mailer(),
      ],
      callbacks: exposeId,
    })
    const victim = new Browser(config)
    await signInByLink(victim, "victim-linked@example.org")
    const victimId = (await victim.session()).user.id
    const attacker = new Browser(config)
    // docs/databases.md: not vouched for, a user holds it verified: OAuthAccountNotLinked.
    expect(errorOf(await oidcSignIn(attacker, "verifiedvictim"))).toBe("OAuthAccountNotLinked")
    expect(await accountsOf(adapter, victimId)).toEqual([])
    expect(await attacker.session()).toBeNull()
    // The provider itself works: another address signs in.
    const other = new Browser(config)
    expect(errorOf(await oidcSignIn(other, "plainuser"))).toBeNull()
    expect((await other.session())?.user).toBeTruthy()
  })

  test("control: a verified OIDC address is linked when the option is on", async () => {
    const { adapter, config } = await linkingConfig()
    const victim = new Browser(config)
    await signInByLink(victim, "victim-linked@example.org")
    const victimId = (await victim.session()).user.id
    const owner = new Browser(config)
    await oidcSignIn(owner, "verifiedvictim")
    expect((await owner.session()).user.id).toBe(victimId)
    expect(await accountsOf(adapter, victimId)).toHaveLength(1)
  })

  test("each built-in provider reports whether its e-mail is verified", () => {
    const options = { clientId: "id", clientSecret: "secret", issuer: "https://idp.example" }
    const email = "ada@example.org"
    const verifiedEmail = (provider: unknown, profile: Record<string, unknown>) =>
      (
        provider as { verifiedEmail: (p: unknown, t: unknown) => string | null | undefined }
      ).verifiedEmail(profile, {})
    // OIDC email_verified
    for (const factory of [Keycloak, Google, Okta, Slack])
      expect(verifiedEmail(factory(options), { sub: "1", email, email_verified: false })).toBe(null)
    expect(verifiedEmail(Keycloak(options), { sub: "1", email, email_verified: true })).toBe(email)
    // Discord `verified`
    expect(verifiedEmail(Discord(options), { id: "1", email, verified: false })).toBe(null)
    expect(verifiedEmail(Discord(options), { id: "1", email, verified: true })).toBe(email)
    // Entra: the tenant-editable `email` alone never counts
    expect(
      verifiedEmail(MicrosoftEntraID(options), { sub: "1", oid: "o", email, email_verified: true }),
    ).toBe(null)
    // VK: no flag
    expect(verifiedEmail(VK(options), { id: 1, email })).toBe(null)
  })
})

// ---------------------------------------------------------------------------------------------
describe("Medium: OAuth check cookies and flow binding", () => {
  test("on https the PKCE, state and nonce cookies are __Host- (Secure, Path=/, no Domain)", async () => {
    const config = authConfig({
      url: `${CANONICAL}/auth`,
      providers: [{ ...localOidcProvider(idp), checks: ["pkce", "state", "nonce"] }],
    })
    const browser = new Browser(config, CANONICAL)
    const start = await browser.startSignIn("local")
    expect(start.status).toBe(302)
    const cookies = setCookies(start).filter((c) => /pkce|state|nonce/.test(c.name))
    expect(cookies.length).toBeGreaterThanOrEqual(3)
    // The passkey challenge and the CSRF cookie too (SECURITY.md).
    const passkeys = authConfig({
      url: `${CANONICAL}/auth`,
      adapter: await sqlite(),
      providers: [Passkey()],
    })
    const options = await new Browser(passkeys, CANONICAL).fetch(
      `/auth/webauthn-options/passkey?action=register&email=${encodeURIComponent(fresh("c"))}`,
    )
    cookies.push(...setCookies(options))
    cookies.push(...setCookies(await new Browser(passkeys, CANONICAL).fetch("/auth/csrf")))
    for (const cookie of cookies) {
      expect(cookie.name, cookie.name).toMatch(/^__Host-/)
      expect(cookie.attributes.secure, cookie.name).toBe(true)
      expect(cookie.attributes.path, cookie.name).toBe("/")
      expect(cookie.attributes.domain, cookie.name).toBeUndefined()
    }
  })

  test.each(["database", "jwt"] as const)(
    "an OAuth callback links only to the user who started the flow (session swapped mid-flow, %s sessions)",
    async (strategy) => {
      const adapter = await sqlite()
      const config = authConfig({
        adapter,
        providers: [localOidcProvider(idp)],
        callbacks: exposeId,
        session: { strategy },
      })
      // Two users, each signed in through the IdP in a browser of their own.
      const xavier = new Browser(config)
      await oidcSignIn(xavier, "xavier")
      const yolanda = new Browser(config)
      await oidcSignIn(yolanda, "yolanda")
      const xId = (await xavier.session()).user.id
      const yId = (await yolanda.session()).user.id
      expect(xId).not.toBe(yId)

      // Control: the signed-in user who starts a sign-in gets the account linked.
      const start1 = await yolanda.startSignIn("local")
      const back1 = await completeOidcLogin(start1.headers.get("location")!, {
        accountId: "fourthparty",
      })
      await yolanda.request(back1.url.pathname + back1.url.search)
      expect(await accountsOf(adapter, yId)).toHaveLength(2)

      // Xavier starts linking another IdP account; before the callback, the browser's
      // session cookie becomes Yolanda's (a planted cookie, a shared machine).
      const start = await xavier.startSignIn("local")
      const back = await completeOidcLogin(start.headers.get("location")!, {
        accountId: "thirdparty",
      })
      xavier.jar.set("tessera.session-token", yolanda.jar.get("tessera.session-token")!)
      await xavier.request(back.url.pathname + back.url.search)
      expect(await accountsOf(adapter, yId)).toHaveLength(2)
      expect(await accountsOf(adapter, xId)).toHaveLength(1)

      // A flow started signed out, a session arriving before its callback: no link either.
      const anonymous = new Browser(config)
      const start3 = await anonymous.startSignIn("local")
      const back3 = await completeOidcLogin(start3.headers.get("location")!, {
        accountId: "fifthparty",
      })
      const again = new Browser(config)
      await oidcSignIn(again, "yolanda")
      anonymous.jar.set("tessera.session-token", again.jar.get("tessera.session-token")!)
      await anonymous.request(back3.url.pathname + back3.url.search)
      expect(await accountsOf(adapter, yId)).toHaveLength(2)
    },
  )

  test("login CSRF: the attacker's own callback URL opened in the victim's signed-in browser links nothing", async () => {
    const adapter = await sqlite()
    const config = authConfig({ adapter, providers: [localOidcProvider(idp)], callbacks: exposeId })
    const victim = new Browser(config)
    await oidcSignIn(victim, "victimcsrf")
    const victimId = (await victim.session()).user.id

    const attacker = new Browser(config)
    const start = await attacker.startSignIn("local")
    const back = await completeOidcLogin(start.headers.get("location")!, { accountId: "malcsrf" })
    const response = await victim.request(back.url.pathname + back.url.search)
    expect(response.status).toBe(302)
    expect(errorOf(response)).not.toBeNull()
    expect(await accountsOf(adapter, victimId)).toHaveLength(1)
    expect((await victim.session()).user.id).toBe(victimId)
  })

  test('checks: ["none"] is refused unless dangerouslyAllowNoChecks; allowed, it warns', async () => {
    const refused = authConfig({ providers: [{ ...localOidcProvider(idp), checks: ["none"] }] })
    const response = await new Browser(refused).fetch("/auth/providers")
    expect(response.status).toBe(500)
    expect(
      log.errors
        .splice(0)
        .map((e) => `${e.name} ${e.message}`)
        .join("\n"),
    ).toMatch(/none|checks/i)

    const warnings = log.warnings.length
    const allowed = authConfig({
      providers: [
        {
          ...localOidcProvider(idp),
          type: "oauth" as const,
          checks: ["none"],
          dangerouslyAllowNoChecks: true,
        },
      ],
    })
    expect((await new Browser(allowed).fetch("/auth/providers")).status).toBe(200)
    expect(log.warnings.slice(warnings).join("\n")).toMatch(/check/i)
  })
})

// ---------------------------------------------------------------------------------------------
describe("Medium: logs never carry decrypted claims, tokens or secrets", () => {
  /** Every string reachable from what a logger received, non-enumerable error fields included. */
  function deepText(value: unknown, seen = new Set<unknown>()): string {
    if (value === null || value === undefined) return ""
    if (typeof value !== "object" && typeof value !== "function") return String(value)
    if (seen.has(value)) return ""
    seen.add(value)
    const parts: string[] = []
    for (const key of Object.getOwnPropertyNames(value)) {
      try {
        parts.push(key, deepText((value as Record<string, unknown>)[key], seen))
      } catch {
        // getters that throw
      }
    }
    if (value instanceof Map)
      for (const [k, v] of value) parts.push(deepText(k, seen), deepText(v, seen))
    return parts.join(" ")
  }

  function everythingLogger() {
    const lines: string[] = []
    const errors: unknown[] = []
    return {
      lines,
      errors,
      logger: {
        error: (...args: unknown[]) => {
          errors.push(args[0])
          lines.push(deepText(args))
        },
        warn: (...args: unknown[]) => void lines.push(deepText(args)),
        debug: (...args: unknown[]) => void lines.push(deepText(args)),
      },
    }
  }

  /** A configuration with debug logging into `recorder`, the test secret and a trusted host. */
  function debugConfig(
    recorder: ReturnType<typeof everythingLogger>,
    extra: Partial<AuthConfig>,
  ): AuthConfig {
    return { secret: SECRET, trustHost: true, debug: true, logger: recorder.logger, ...extra }
  }

  test("an expired or tampered JWT session cookie: no e-mail, no stored OAuth token in any log", async () => {
    const recorder = everythingLogger()
    const secretEmail = "claims-owner@example.org"
    const accessToken = "at-sekrit-0123456789abcdef"
    const config = debugConfig(recorder, {
      session: { strategy: "jwt", maxAge: 3600 },
      providers: [
        credentialsProvider({
          authorize: () => ({ id: "u1", name: "Claims Owner", email: secretEmail }),
        }),
      ],
      callbacks: {
        jwt({ token }) {
          return { ...token, accessToken }
        },
      },
    })
    const browser = new Browser(config)
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2031-05-01T10:00:00Z") })
    await browser.request("/auth/callback/credentials", {
      body: { username: "x", password: "y", csrfToken: await browser.csrfToken() },
    })
    const name = [...browser.jar.keys()].find((k) => k.includes("session-token"))!
    const cookie = browser.jar.get(name)!
    expect(cookie).toBeTruthy()

    // Expired: the jar would drop it, an attacker (or a stale tab) sends it anyway.
    vi.setSystemTime(Date.parse("2031-05-03T10:00:00Z"))
    const expired = await Auth(
      new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `${name}=${cookie}` } }),
      config,
    )
    expect(expired.status).toBe(200)
    expect(await expired.json()).toBeNull()

    // Tampered: one character of the ciphertext changed, and the tag.
    vi.setSystemTime(Date.parse("2031-05-01T10:05:00Z"))
    const parts = cookie.split(".")
    for (const index of [1, 3, 4]) {
      const copy = [...parts]
      const s = copy[index]!
      copy[index] = (s[0] === "A" ? "B" : "A") + s.slice(1)
      const tampered = await Auth(
        new Request(`${ORIGIN}/auth/session`, {
          headers: { cookie: `${name}=${copy.join(".")}` },
        }),
        config,
      )
      expect(tampered.status).toBe(200)
    }

    const all = recorder.lines.join("\n")
    expect(all).not.toContain(secretEmail)
    expect(all).not.toContain(accessToken)
    expect(all).not.toContain(SECRET)
    expect(all).not.toContain(cookie)
    expect(recorder.errors).toEqual([])
  })

  test("an expired or tampered Auth.js session cookie (adoption path): no claim reaches the log", async () => {
    const fixtures = JSON.parse(
      readFileSync(new URL("../fixtures/authjs-session-tokens.json", import.meta.url), "utf8"),
    ) as { secret: string; plain: string; expired: string; claims: Record<string, string> }
    const recorder = everythingLogger()
    const config = debugConfig(recorder, {
      secret: fixtures.secret,
      providers: [credentialsProvider()],
    })
    const parts = fixtures.plain.split(".")
    const tampered = [...parts]
    tampered[3] = (tampered[3]![0] === "A" ? "B" : "A") + tampered[3]!.slice(1)
    for (const token of [fixtures.expired, tampered.join(".")]) {
      const response = await Auth(
        new Request(`${ORIGIN}/auth/session`, {
          headers: { cookie: `authjs.session-token=${token}` },
        }),
        config,
      )
      expect(response.status).toBeLessThan(500)
      expect(await response.json()).toBeNull()
    }
    const all = recorder.lines.join("\n")
    expect(all).not.toContain(fixtures.claims.email!)
    expect(all).not.toContain(fixtures.claims.name!)
    expect(all).not.toContain(fixtures.secret)
    expect(recorder.errors).toEqual([])
  })

  test("debug logging of a whole e-mail sign-in: no token, no session cookie, no address", async () => {
    const recorder = everythingLogger()
    const adapter = await sqlite()
    const config = debugConfig(recorder, {
      adapter,
      providers: [mailer()],
    })
    const browser = new Browser(config)
    const email = fresh("quiet")
    const { seen } = await askLink(browser, email)
    const link = new URL(linkIn((await mailFor(email, seen)).text))
    await browser.request(link.pathname + link.search)
    await browser.request(link.pathname + link.search) // used: refused
    expect((await browser.session()).user.email).toBe(email)
    const cookie = browser.jar.get("tessera.session-token")!
    const all = recorder.lines.join("\n")
    expect(all).toMatch(/request: GET callback \(nodemailer\)/)
    expect(all).not.toContain(link.searchParams.get("token")!)
    expect(all).not.toContain(cookie)
    expect(all).not.toContain(email)
    expect(all).not.toContain(SECRET)
    expect(recorder.errors).toEqual([])
  })

  test("debug logging of a whole OIDC sign-in: no code, no access, refresh or ID token", async () => {
    const recorder = everythingLogger()
    const adapter = await sqlite()
    const config = debugConfig(recorder, {
      adapter,
      providers: [localOidcProvider(idp)],
    })
    const browser = new Browser(config)
    const start = await browser.startSignIn("local")
    const back = await completeOidcLogin(start.headers.get("location")!, { accountId: "loggy" })
    const done = await browser.request(back.url.pathname + back.url.search)
    expect(errorOf(done)).toBeNull()
    // The code again: refused by the provider.
    await new Browser(config).request(back.url.pathname + back.url.search)
    const rows = (await sql.raw(`select * from accounts`).execute(adapter.db)).rows as Record<
      string,
      unknown
    >[]
    const all = recorder.lines.join("\n")
    expect(all).toMatch(/request: GET callback \(local\)/)
    expect(all).not.toContain(back.url.searchParams.get("code")!)
    for (const row of rows)
      for (const column of ["access_token", "id_token", "refresh_token"])
        if (typeof row[column] === "string") expect(all, column).not.toContain(row[column])
    expect(all).not.toContain(idp.clientSecret)
    expect(all).not.toContain("loggy@example.test")
    log.errors.splice(0)
  })

  test("client refusals (missing CSRF, bad input, wrong password, unknown action) are never errors; a config error is logged once", async () => {
    const recorder = everythingLogger()
    const config = debugConfig(recorder, {
      providers: [credentialsProvider()],
    })
    const browser = new Browser(config)
    // Missing CSRF token.
    const noCsrf = await browser.request("/auth/callback/credentials", {
      body: { username: "ada", password: "correct horse" },
    })
    expect(noCsrf.status).toBeLessThan(500)
    // Wrong password.
    const wrong = await browser.request("/auth/callback/credentials", {
      body: { username: "ada", password: "nope", csrfToken: await browser.csrfToken() },
    })
    expect(wrong.status).toBe(302)
    // Unknown action, bad input.
    expect((await browser.fetch("/auth/definitely-not-an-action")).status).toBe(404)
    const bad = await browser.fetch("/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    })
    expect(bad.status).toBe(400)
    expect(recorder.errors).toEqual([])
    expect(recorder.lines.join("\n")).not.toContain("nope")

    // The default logger prints them without a stack trace (a custom logger gets the error).
    const printed: string[] = []
    const capture = (...args: unknown[]) => void printed.push(args.map(String).join(" "))
    const spies = (["log", "debug", "info", "warn", "error"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(capture),
    )
    try {
      const plain: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        debug: true,
        providers: [credentialsProvider()],
      }
      const other = new Browser(plain)
      await other.request("/auth/callback/credentials", { body: { username: "ada" } })
      await other.request("/auth/callback/credentials", {
        body: { username: "ada", password: "nope", csrfToken: await other.csrfToken() },
      })
      await other.fetch("/auth/definitely-not-an-action")
    } finally {
      for (const spy of spies) spy.mockRestore()
    }
    expect(printed.join("\n")).toMatch(/MissingCSRF/)
    expect(printed.join("\n")).not.toMatch(/\n\s+at .+:\d+/)
    expect(printed.join("\n")).not.toContain("nope")

    // A configuration error, many requests: one error.
    const broken = everythingLogger()
    const misconfigured = {
      trustHost: true,
      logger: broken.logger,
      providers: [credentialsProvider()],
    } as AuthConfig
    vi.stubEnv("AUTH_SECRET", "")
    try {
      for (let i = 0; i < 5; i++) {
        const response = await Auth(new Request(`${ORIGIN}/auth/session`), misconfigured)
        expect(response.status).toBe(500)
      }
    } finally {
      vi.unstubAllEnvs()
    }
    expect(broken.errors).toHaveLength(1)
  })
})

// ---------------------------------------------------------------------------------------------
describe("Medium: webauthn-options, purges", () => {
  test("same status and shape for a known and an unknown address; anonymous requests write no rows", async () => {
    const adapter = await sqlite()
    const config = authConfig({ adapter, providers: [Passkey()] })
    // A known address: someone registered it.
    const owner = new Browser(config)
    const known = fresh("known")
    const reg = await webauthnOptions(owner, `action=register&email=${encodeURIComponent(known)}`)
    await passkeyAnswer(
      owner,
      "register",
      new SoftAuthenticator().register(reg.body.options, { origin: ORIGIN }),
    )

    const shape = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(shape)
        : value && typeof value === "object"
          ? Object.fromEntries(
              Object.entries(value)
                .sort(([a], [b]) => a.localeCompare(b))
                .map(([k, v]) => [k, k === "name" || k === "displayName" ? "<name>" : shape(v)]),
            )
          : typeof value
    const rowsBefore = await allRows(adapter)
    const answers: Record<string, unknown>[] = []
    for (const email of [known, fresh("unknown")]) {
      for (const query of [
        `email=${encodeURIComponent(email)}`,
        `action=register&email=${encodeURIComponent(email)}`,
        `action=authenticate&email=${encodeURIComponent(email)}`,
      ]) {
        const { response, status, body } = await webauthnOptions(new Browser(config), query)
        answers.push({
          query: query.replace(/email=.*/, "email"),
          status,
          body: shape(body),
          cookies: setCookies(response)
            .map((c) => c.name)
            .sort(),
        })
      }
    }
    expect(answers.slice(0, 3)).toEqual(answers.slice(3))
    expect(await allRows(adapter)).toBe(rowsBefore)
  })

  test("expired verification tokens are purged on write and by `tessera purge`", async () => {
    const adapter = await sqlite()
    const config = authConfig({ adapter, providers: [mailer()] })
    const past = new Date(Date.now() - 3600_000)
    const rows = async () =>
      (await sql.raw(`select * from verification_tokens`).execute(adapter.db)).rows as Record<
        string,
        unknown
      >[]
    const plant = (identifier: string, token: string) =>
      sql`insert into verification_tokens (identifier, token, expires) values (${identifier}, ${token}, ${past.getTime()})`.execute(
        adapter.db,
      )
    await plant("old@example.org", "a".repeat(64))
    expect((await rows()).length).toBe(1)
    await askLink(new Browser(config), fresh("writer"))
    const after = await rows()
    expect(after.filter((r) => r.identifier === "old@example.org")).toEqual([])

    // The CLI: a second expired token, then `tessera purge --sqlite <file>`.
    await plant("older@example.org", "b".repeat(64))
    expect((await rows()).some((r) => r.identifier === "older@example.org")).toBe(true)
    await promisify(execFile)("npx", ["tessera", "purge", "--sqlite", adapter.path], {
      timeout: 60_000,
    })
    expect((await rows()).some((r) => r.identifier === "older@example.org")).toBe(false)
  })
})

// ---------------------------------------------------------------------------------------------
describe("Low: built-in page headers", () => {
  test("every built-in page: no-store, DENY, CSP frame-ancestors 'none' with a nonce on its scripts, nosniff", async () => {
    const adapter = await sqlite()
    const config = authConfig({ adapter, providers: [credentialsProvider(), Passkey(), mailer()] })
    const browser = new Browser(config)
    for (const page of [
      "/auth/signin",
      "/auth/signout",
      "/auth/error?error=Verification",
      "/auth/verify-request",
    ]) {
      const response = await browser.fetch(page)
      expect(response.status, page).toBeLessThan(500)
      const h = response.headers
      expect(h.get("cache-control"), page).toMatch(/no-store/)
      expect(h.get("x-frame-options"), page).toBe("DENY")
      expect(h.get("x-content-type-options"), page).toBe("nosniff")
      const csp = h.get("content-security-policy") ?? ""
      expect(csp, page).toMatch(/frame-ancestors 'none'/)
      const html = await response.text()
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
      for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) {
        expect(nonce, page).toBeTruthy()
        expect(tag, page).toContain(`nonce="${nonce}"`)
      }
      expect(html, page).not.toMatch(/<script\b(?![^>]*\bsrc=)[^>]*>\s*<\/script>/)
    }
  })

  test("an OAuth callback's answers (its URL carries the code) are Referrer-Policy: no-referrer", async () => {
    const config = authConfig({ adapter: await sqlite(), providers: [localOidcProvider(idp)] })
    const browser = new Browser(config)
    const start = await browser.startSignIn("local")
    const back = await completeOidcLogin(start.headers.get("location")!, { accountId: "refy" })
    const done = await browser.request(back.url.pathname + back.url.search)
    expect(errorOf(done)).toBeNull()
    expect(done.headers.get("referrer-policy")).toBe("no-referrer")
    const refused = await new Browser(config).request(back.url.pathname + back.url.search)
    expect(errorOf(refused)).not.toBeNull()
    expect(refused.headers.get("referrer-policy")).toBe("no-referrer")
  })

  test("the confirmLink page at a link's URL keeps same-origin (SECURITY.md: its form must send Origin)", async () => {
    const adapter = await sqlite()
    const config = authConfig({
      adapter,
      providers: [Nodemailer({ server: sink.url, from: "app@example.com", confirmLink: true })],
    })
    const browser = new Browser(config)
    const email = fresh("confirm")
    const { seen } = await askLink(browser, email)
    const link = new URL(linkIn((await mailFor(email, seen)).text))
    const page = await browser.request(link.pathname + link.search)
    expect(page.status).toBe(200)
    expect(page.headers.get("referrer-policy")).toBe("same-origin")
    const html = await page.text()
    const csrfToken = /name="csrfToken" value="([^"]+)"/.exec(html)![1]!
    const done = await browser.request(link.pathname, {
      body: {
        csrfToken,
        token: link.searchParams.get("token")!,
        email: link.searchParams.get("email")!,
      },
      headers: { origin: ORIGIN },
    })
    expect(done.status).toBe(302)
    expect(errorOf(done)).toBeNull()
    expect((await browser.session()).user.email).toBe(email)
  })

  test("the CSP nonce is fresh on every page view", async () => {
    const config = authConfig({ adapter: await sqlite(), providers: [Passkey()] })
    const nonces = new Set<string>()
    for (let i = 0; i < 3; i++) {
      const response = await new Browser(config).fetch("/auth/signin")
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")
      expect(nonce).not.toBeNull()
      expect(nonce![1]!.length).toBeGreaterThanOrEqual(16)
      nonces.add(nonce![1]!)
    }
    expect(nonces.size).toBe(3)
  })

  test("answers at a mailed link's URL (a used or bad token) are Referrer-Policy: no-referrer", async () => {
    const adapter = await sqlite()
    const config = authConfig({ adapter, providers: [mailer()] })
    const browser = new Browser(config)
    const email = fresh("ref")
    const { seen } = await askLink(browser, email)
    const link = new URL(linkIn((await mailFor(email, seen)).text))
    const used = await browser.request(link.pathname + link.search)
    expect(used.headers.get("referrer-policy")).toBe("no-referrer")
    // Refused: the same link again, and the link with its address changed.
    const again = await new Browser(config).request(link.pathname + link.search)
    expect(again.status).toBe(302)
    expect(new URL(again.headers.get("location")!).searchParams.get("error")).toBe("Verification")
    expect(again.headers.get("referrer-policy")).toBe("no-referrer")
    const other = new URL(link)
    other.searchParams.set("email", fresh("someone-else"))
    const mismatched = await new Browser(config).request(other.pathname + other.search)
    expect(mismatched.status).toBe(302)
    expect(mismatched.headers.get("referrer-policy")).toBe("no-referrer")
  })
})

// ---------------------------------------------------------------------------------------------
describe("Low: e-mail identity across providers", () => {
  test("an OIDC address is trimmed and lower-cased like an e-mail sign-in address", async () => {
    const { adapter, config } = await linkingConfig()
    const owner = new Browser(config)
    await signInByLink(owner, "ada.case@example.com")
    const ownerId = (await owner.session()).user.id
    const viaIdp = new Browser(config)
    await oidcSignIn(viaIdp, "shouty")
    const session = await viaIdp.session()
    expect(session.user.id).toBe(ownerId)
    expect(session.user.email).toBe("ada.case@example.com")
    expect(await accountsOf(adapter, ownerId)).toHaveLength(1)
  })

  test("the Kelvin sign (U+212A) never folds into another user's 'k'", async () => {
    const { adapter, config } = await linkingConfig()
    const kate = new Browser(config)
    await signInByLink(kate, "kate@example.org")
    const kateId = (await kate.session()).user.id
    const lookalike = new Browser(config)
    await oidcSignIn(lookalike, "kelvin")
    const session = await lookalike.session()
    if (session) expect(session.user.id).not.toBe(kateId)
    expect(await accountsOf(adapter, kateId)).toEqual([])

    // The same through e-mail sign-in: a non-ASCII local part is refused before any folding
    // (SECURITY.md), so no mail goes out for it at all.
    const byMail = new Browser(config)
    const { response, seen } = await askLink(byMail, "\u212Aate@example.org")
    expect(response.status === 400 || errorOf(response) !== null).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(sink.messages.slice(seen).filter((m) => /ate@example\.org/i.test(m.to.join()))).toEqual(
      [],
    )
  })
})

// ---------------------------------------------------------------------------------------------
describe("Low: JWT absolute lifetime", () => {
  const day = 86_400_000
  /** The clock fixed at `start`, a credentials sign-in with JWT sessions of `session`'s options. */
  const signInAt = async (start: string, session: NonNullable<AuthConfig["session"]>) => {
    const T0 = Date.parse(start)
    vi.useFakeTimers({ toFake: ["Date"], now: T0 })
    const config = authConfig({
      providers: [credentialsProvider()],
      session: { strategy: "jwt", ...session },
    })
    const browser = new Browser(config)
    await browser.request("/auth/callback/credentials", {
      body: { username: "ada", password: "correct horse", csrfToken: await browser.csrfToken() },
    })
    return { T0, config, browser }
  }

  test("a copied cookie older than updateAge is never re-issued past session.absoluteMaxAge", async () => {
    const { T0, config, browser } = await signInAt("2031-06-01T00:00:00Z", {
      maxAge: (2 * day) / 1000,
      updateAge: 3600,
      absoluteMaxAge: (3 * day) / 1000,
    })
    const name = [...browser.jar.keys()].find((k) => k.includes("session-token"))!
    const copied = browser.jar.get(name)!
    // The thief replays the copy every 36 h, keeping whatever cookie comes back.
    const thief = new Browser(config)
    thief.jar.set(name, copied)
    for (const hours of [36, 60]) {
      vi.setSystemTime(T0 + hours * 3600_000)
      const session = await thief.session()
      expect(session, `${hours} h`).not.toBeNull()
      expect(Date.parse(session.expires), `${hours} h`).toBeLessThanOrEqual(T0 + 3 * day)
    }
    vi.setSystemTime(T0 + 3 * day + 60_000)
    expect(await thief.session()).toBeNull()
  })

  test("a session update (POST /auth/session) never moves expires past session.absoluteMaxAge", async () => {
    const { T0, browser } = await signInAt("2031-06-10T00:00:00Z", {
      maxAge: (2 * day) / 1000,
      absoluteMaxAge: (3 * day) / 1000,
    })
    vi.setSystemTime(T0 + 36 * 3600_000)
    expect(await browser.session()).not.toBeNull() // slides the 2-day expiry
    vi.setSystemTime(T0 + 60 * 3600_000)
    const response = await browser.fetch("/auth/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ csrfToken: await browser.csrfToken(), data: { theme: "dark" } }),
    })
    expect(response.status).toBe(200)
    const updated = await response.json()
    expect(Date.parse(updated.expires)).toBeLessThanOrEqual(T0 + 3 * day)
    vi.setSystemTime(T0 + 3 * day + 60_000)
    expect(await browser.session()).toBeNull()
  })

  test("a maxAge longer than 30 days is its own absolute lifetime (SECURITY.md: 30 days, or maxAge if longer)", async () => {
    const { T0, browser } = await signInAt("2031-08-01T00:00:00Z", {
      maxAge: (60 * day) / 1000,
    })
    vi.setSystemTime(T0 + 35 * day)
    const session = await browser.session()
    expect(session).not.toBeNull()
    expect(Date.parse(session.expires)).toBeLessThanOrEqual(T0 + 60 * day)
    vi.setSystemTime(T0 + 60 * day + 3600_000)
    expect(await browser.session()).toBeNull()
  })

  test("default absoluteMaxAge: 30 days from sign-in", async () => {
    const { T0, browser } = await signInAt("2031-07-01T00:00:00Z", {
      maxAge: (7 * day) / 1000,
    })
    for (let d = 5; d < 30; d += 5) {
      vi.setSystemTime(T0 + d * day)
      const session = await browser.session()
      expect(session, `day ${d}`).not.toBeNull()
      expect(Date.parse(session.expires)).toBeLessThanOrEqual(T0 + 30 * day)
    }
    vi.setSystemTime(T0 + 30 * day + 3600_000)
    expect(await browser.session()).toBeNull()
  })
})
