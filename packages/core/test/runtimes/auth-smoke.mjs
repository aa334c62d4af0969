/**
 * A representative set of core checks that runs on any runtime with `Request`,
 * `Response` and Web Crypto: Node, Bun, Deno. It imports the built package
 * (`@tessera/core`, resolved from node_modules) and uses nothing but web APIs, so a
 * runtime difference in crypto, cookies, URL or body parsing shows up here.
 *
 * - credentials sign-in: CSRF token, callback, session cookie, `GET session`;
 * - CSRF: a POST without the token or with a forged one signs nobody in;
 * - `@tessera/core/jwt`: encode/decode round trip, refused under another secret;
 * - an Auth.js v5 session cookie (made by jose: `A256CBC-HS512` and `A256GCM`) is adopted,
 *   a tampered one is not;
 * - OAuth 2 (PKCE + state) and OpenID Connect (discovery, ID Token signed ES256, nonce)
 *   sign-ins against an in-process stand-in reached through `customFetch`: no sockets.
 *
 * Usage: `<runtime> packages/core/test/runtimes/auth-smoke.mjs` (after `npm run build`);
 * `scripts/test-runtimes.mjs` runs it on every runtime it finds.
 */
import { Auth, customFetch } from "@tessera/core"
import { decode, encode } from "@tessera/core/jwt"
import Credentials from "@tessera/core/providers/credentials"
import {
  EncryptJWT,
  SignJWT,
  base64url,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
} from "jose"

const runtime =
  typeof globalThis.Deno !== "undefined"
    ? `deno ${globalThis.Deno.version.deno}`
    : typeof globalThis.Bun !== "undefined"
      ? `bun ${globalThis.Bun.version}`
      : `node ${globalThis.process?.versions?.node}`

const SECRET = "runtime-smoke-secret-0123456789abcdef-0123456789"
const ORIGIN = "http://localhost:3000"

// ------------------------------------------------------------------ a tiny test runner

const results = []
async function check(name, fn) {
  try {
    await fn()
    results.push({ name, ok: true })
    console.log(`ok - ${name}`)
  } catch (error) {
    results.push({ name, ok: false })
    console.log(`not ok - ${name}\n  ${String(error?.stack ?? error).replace(/\n/g, "\n  ")}`)
  }
}
function assert(condition, message) {
  if (!condition) throw new Error(`assertion failed: ${message}`)
}
function equal(actual, expected, message) {
  if (actual !== expected)
    throw new Error(
      `${message}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`,
    )
}

// ------------------------------------------------------------------ a browser with a cookie jar

class Browser {
  jar = new Map()
  constructor(config) {
    this.config = config
  }
  async fetch(path, init = {}) {
    const headers = new Headers(init.headers)
    if (this.jar.size)
      headers.set(
        "cookie",
        [...this.jar].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; "),
      )
    const response = await Auth(
      new Request(new URL(path, ORIGIN), { ...init, headers }),
      this.config,
    )
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(/;\s*/)
      const name = pair.slice(0, pair.indexOf("="))
      const value = decodeURIComponent(pair.slice(pair.indexOf("=") + 1))
      if (value === "" || attributes.some((a) => /^max-age=0$/i.test(a))) this.jar.delete(name)
      else this.jar.set(name, value)
    }
    return response
  }
  post(path, fields) {
    return this.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams(fields),
    })
  }
  async csrfToken() {
    return (await (await this.fetch("/auth/csrf")).json()).csrfToken
  }
  async session() {
    return (await this.fetch("/auth/session")).json()
  }
}

// ------------------------------------------------------------------ an in-process authorization server

/** Answers the provider's requests in process: `customFetch` never opens a socket. */
async function standIn({ issuer, oidc }) {
  const { privateKey, publicKey } = await generateKeyPair("ES256")
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256", use: "sig" }
  const codes = new Map()
  const tokens = new Map()
  const json = (body, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })
  const sha256 = async (text) =>
    btoa(
      String.fromCharCode(
        ...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))),
      ),
    )
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "")

  const fetch = async (input, init = {}) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    if (url.href === `${issuer}/.well-known/openid-configuration`)
      return json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["ES256"],
        code_challenge_methods_supported: ["S256"],
      })
    if (url.href === `${issuer}/jwks`) return json({ keys: [jwk] })
    if (url.href === `${issuer}/token`) {
      const form = new URLSearchParams(await request.text())
      const record = codes.get(form.get("code"))
      codes.delete(form.get("code"))
      if (!record) return json({ error: "invalid_grant" }, 400)
      if ((await sha256(form.get("code_verifier") ?? "")) !== record.challenge)
        return json({ error: "invalid_grant", error_description: "PKCE" }, 400)
      if (form.get("redirect_uri") !== record.redirectUri)
        return json({ error: "invalid_grant" }, 400)
      const accessToken = crypto.randomUUID()
      tokens.set(accessToken, record)
      const body = { access_token: accessToken, token_type: "Bearer", expires_in: 3600 }
      if (oidc) {
        const now = Math.floor(Date.now() / 1000)
        body.id_token = await new SignJWT({ nonce: record.nonce, email: "ada@example.com" })
          .setProtectedHeader({ alg: "ES256", kid: "k1" })
          .setIssuer(issuer)
          .setAudience("client-1")
          .setSubject("ada")
          .setIssuedAt(now)
          .setExpirationTime(now + 300)
          .sign(privateKey)
      }
      return json(body)
    }
    if (url.href === `${issuer}/userinfo`) {
      const record = tokens.get(request.headers.get("authorization")?.replace(/^Bearer /, ""))
      if (!record) return json({ error: "invalid_token" }, 401)
      return json({ sub: "ada", id: "ada", name: "Ada Lovelace", email: "ada@example.com" })
    }
    return json({ error: `no route for ${url.href}` }, 404)
  }

  /** The user's visit to the authorization endpoint: approved, back to the app with a code. */
  const authorize = (location) => {
    const url = new URL(location)
    assert(url.href.startsWith(`${issuer}/authorize?`), `authorization endpoint, got ${url.href}`)
    equal(url.searchParams.get("code_challenge_method"), "S256", "PKCE method")
    const code = crypto.randomUUID()
    codes.set(code, {
      challenge: url.searchParams.get("code_challenge"),
      nonce: url.searchParams.get("nonce") ?? undefined,
      redirectUri: url.searchParams.get("redirect_uri"),
    })
    const back = new URL(url.searchParams.get("redirect_uri"))
    back.searchParams.set("code", code)
    if (url.searchParams.has("state")) back.searchParams.set("state", url.searchParams.get("state"))
    return back
  }
  return { fetch, authorize }
}

// ------------------------------------------------------------------ the checks

const credentials = Credentials({
  credentials: { username: { label: "User" }, password: { label: "Password", type: "password" } },
  authorize: ({ username, password }) =>
    username === "ada" && password === "correct horse"
      ? { id: "1", name: "Ada Lovelace", email: "ada@example.com" }
      : null,
})
const config = { secret: SECRET, trustHost: true, providers: [credentials] }

await check("credentials sign-in sets a session cookie; GET session returns the user", async () => {
  const browser = new Browser(config)
  const csrfToken = await browser.csrfToken()
  equal(typeof csrfToken, "string", "csrf token")
  const response = await browser.post("/auth/callback/credentials", {
    csrfToken,
    username: "ada",
    password: "correct horse",
  })
  equal(response.status, 302, "status")
  equal(new URL(response.headers.get("location")).href, `${ORIGIN}/`, "redirect")
  assert(browser.jar.has("tessera.session-token"), "a session cookie")
  const session = await browser.session()
  equal(session?.user?.email, "ada@example.com", "session user")
  assert(Date.parse(session.expires) > Date.now(), "expires in the future")
})

await check("a wrong password lands on the sign-in page with CredentialsSignin", async () => {
  const browser = new Browser(config)
  const response = await browser.post("/auth/callback/credentials", {
    csrfToken: await browser.csrfToken(),
    username: "ada",
    password: "wrong",
  })
  assert(/error=CredentialsSignin/.test(response.headers.get("location") ?? ""), "error code")
  assert(!browser.jar.has("tessera.session-token"), "no session cookie")
})

await check("CSRF: no token, or a forged one, signs nobody in", async () => {
  for (const token of [undefined, "f".repeat(64)]) {
    const browser = new Browser(config)
    await browser.csrfToken()
    const fields = { username: "ada", password: "correct horse" }
    if (token) fields.csrfToken = token
    const response = await browser.post("/auth/callback/credentials", fields)
    assert(!browser.jar.has("tessera.session-token"), `no session cookie (token ${token})`)
    assert(response.status >= 300, `refused (status ${response.status})`)
    equal(await browser.session(), null, "no session")
  }
})

await check("sign-out clears the session", async () => {
  const browser = new Browser(config)
  await browser.post("/auth/callback/credentials", {
    csrfToken: await browser.csrfToken(),
    username: "ada",
    password: "correct horse",
  })
  await browser.post("/auth/signout", { csrfToken: await browser.csrfToken() })
  assert(!browser.jar.has("tessera.session-token"), "cookie cleared")
  equal(await browser.session(), null, "no session")
})

await check("an Auth.js session cookie is adopted; a tampered one is not", async () => {
  const salt = "authjs.session-token"
  for (const [enc, length] of [
    ["A256CBC-HS512", 64],
    ["A256GCM", 32],
  ]) {
    // Auth.js's key and kid, made here with Web Crypto and jose.
    const ikm = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(SECRET),
      "HKDF",
      false,
      ["deriveBits"],
    )
    const key = new Uint8Array(
      await crypto.subtle.deriveBits(
        {
          name: "HKDF",
          hash: "SHA-256",
          salt: new TextEncoder().encode(salt),
          info: new TextEncoder().encode(`Auth.js Generated Encryption Key (${salt})`),
        },
        ikm,
        length * 8,
      ),
    )
    const kid = await calculateJwkThumbprint(
      { kty: "oct", k: base64url.encode(key) },
      length === 64 ? "sha512" : "sha256",
    )
    const token = await new EncryptJWT({ sub: "1", name: "Ada Lovelace", email: "ada@example.com" })
      .setProtectedHeader({ alg: "dir", enc, kid })
      .setExpirationTime("1h")
      .encrypt(key)
    const browser = new Browser({ secret: SECRET, trustHost: true, providers: [credentials] })
    browser.jar.set(salt, token)
    equal((await browser.session())?.user?.email, "ada@example.com", `${enc}: adopted`)
    assert(!browser.jar.has(salt), `${enc}: the Auth.js cookie is cleared`)
    equal((await browser.session())?.user?.email, "ada@example.com", `${enc}: Tessera's cookie`)

    const [h, , iv, ct, tag] = token.split(".")
    const forged = new Browser({ secret: SECRET, trustHost: true, providers: [credentials] })
    forged.jar.set(salt, `${h}..${iv}.${ct}.${tag.startsWith("A") ? "B" : "A"}${tag.slice(1)}`)
    equal(await forged.session(), null, `${enc}: tampered tag, no session`)
  }
})

await check("jwt: encode/decode round trip; another secret or salt decodes nothing", async () => {
  const salt = "tessera.session-token"
  const token = await encode({ token: { sub: "1", role: "admin" }, secret: SECRET, salt })
  equal(token.split(".").length, 5, "a compact JWE")
  const payload = await decode({ token, secret: SECRET, salt })
  equal(payload?.sub, "1", "sub")
  equal(payload?.role, "admin", "claim")
  for (const params of [
    { token, secret: "another-secret-fedcba9876543210-fedcba9876543210", salt },
    { token, secret: SECRET, salt: "tessera.other" },
  ]) {
    // Refused: null, or a thrown error (either way no payload).
    const decoded = await decode(params).catch(() => null)
    equal(decoded, null, "refused")
  }
})

for (const oidc of [false, true]) {
  const kind = oidc ? "OpenID Connect (discovery, ES256 ID Token, nonce)" : "OAuth 2 (PKCE, state)"
  await check(`${kind} sign-in against an in-process stand-in`, async () => {
    const issuer = oidc ? "https://idp.example" : "https://oauth.example"
    const server = await standIn({ issuer, oidc })
    const provider = oidc
      ? {
          id: "idp",
          name: "IdP",
          type: "oidc",
          issuer,
          clientId: "client-1",
          clientSecret: "secret-1",
          [customFetch]: server.fetch,
        }
      : {
          id: "plain",
          name: "Plain",
          type: "oauth",
          clientId: "client-1",
          clientSecret: "secret-1",
          checks: ["pkce", "state"],
          authorization: { url: `${issuer}/authorize`, params: { scope: "profile" } },
          token: { url: `${issuer}/token` },
          userinfo: { url: `${issuer}/userinfo` },
          [customFetch]: server.fetch,
        }
    const browser = new Browser({ secret: SECRET, trustHost: true, providers: [provider] })
    const start = await browser.post(`/auth/signin/${provider.id}`, {
      csrfToken: await browser.csrfToken(),
    })
    equal(start.status, 302, "redirect to the provider")
    const back = server.authorize(start.headers.get("location"))
    const callback = await browser.fetch(`${back.pathname}${back.search}`)
    equal(callback.status, 302, "callback status")
    equal(new URL(callback.headers.get("location")).href, `${ORIGIN}/`, "back home")
    const session = await browser.session()
    equal(session?.user?.email, "ada@example.com", "session user")
  })
}

const failed = results.filter((r) => !r.ok).length
console.log(`${runtime}: ${results.length - failed} of ${results.length} checks passed`)
if (failed) {
  if (typeof globalThis.Deno !== "undefined") globalThis.Deno.exit(1)
  globalThis.process.exit(1)
}
