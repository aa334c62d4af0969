/**
 * The e-mail, credentials and passkey provider factories of
 * `@tessera/core/providers/<file>` against `@auth/core/providers/<file>`
 * (0.41.3): the resolved configuration (every field that is not a function,
 * and the names of those that are), with no options and with the options
 * Auth.js's docs show; what the HTTP mail API senders send for the same
 * parameters (method, URL, header names, the `Authorization` scheme, the
 * body's fields, the subject) and how they fail on a non-2xx answer; the
 * default address normalizer and token. A difference not listed in
 * DELIBERATE (with its reason) fails.
 *
 * Auth.js's side is recorded in fixtures/authjs-provider-factories-other.json,
 * as for authjs-provider-configs.test.ts (the baseline is git-ignored and
 * Tessera never depends on @auth/*). To record it again:
 *   AUTHJS_DIR=bench/.baseline/authjs npx vitest run packages/core/test/compat/authjs-provider-factories-other.test.ts
 *   npx prettier --write packages/core/test/fixtures/authjs-provider-factories-other.json
 *
 * The senders cannot reach the real APIs here: each library's `fetch` is a
 * stand-in that records the Request (Auth.js's global `fetch`, Tessera's
 * `[customFetch]`, which its HTTP mail providers send through).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { isDeepStrictEqual } from "node:util"
import { describe, expect, test } from "vitest"
import { customFetch } from "@tessera/core"
import { merge } from "../../src/config/merge.js"
import { normalizeEmailAddress } from "../../src/flows/email/address.js"
import { defaultVerificationToken } from "../../src/flows/email/token.js"
import { PasskeyBrowser, passkeyConfig } from "../flows/webauthn/passkey-browser.js"

type Shape = Record<string, unknown>
type Factory = (options?: Record<string, unknown>) => Record<string, unknown>
type Send = (params: Record<string, unknown>) => Promise<void>

const FIXTURE = new URL("../fixtures/authjs-provider-factories-other.json", import.meta.url)

const FROM = "no-reply@acme.example"
const authorize = () => null
/** The options of each factory's "typical" call, as Auth.js's docs show them. */
const TYPICAL: Record<string, Record<string, unknown>> = {
  email: { server: "smtp://user:pass@smtp.acme.example:587", from: FROM },
  nodemailer: { server: "smtp://user:pass@smtp.acme.example:587", from: FROM },
  resend: { apiKey: "re_key", from: FROM },
  sendgrid: { apiKey: "sg_key", from: FROM },
  postmark: { apiKey: "pm_key", from: FROM },
  forwardemail: { apiKey: "fe_key", from: FROM },
  mailgun: { apiKey: "mg_key", from: FROM },
  loops: { apiKey: "lp_key", transactionalId: "tx_1" },
  credentials: {
    credentials: {
      username: { label: "Username" },
      password: { label: "Password", type: "password" },
    },
    authorize,
  },
  passkey: {},
  webauthn: { relayingParty: { id: "acme.example", name: "Acme", origin: "https://acme.example" } },
}
const FILES = Object.keys(TYPICAL)
const NAMED_FROM = "Acme <no-reply@acme.example>"
const SENDERS = ["resend", "sendgrid", "postmark", "forwardemail", "mailgun", "loops"]
const ADDRESSES = [
  "  Ada@Example.COM ",
  "ada+tag@example.com",
  "ada@example.com, eve@evil.example",
  '"eve@evil.example"@example.com',
  "ada@bücher.example",
  "Ada <ada@example.com>",
  "ada@example",
  "ada",
]

/**
 * Where Tessera differs on purpose: "<file> <case>" or "<file> send" -> field -> why.
 * User-visible ones are in docs/migrating-from-authjs.md.
 */
const DELIBERATE: Record<string, Record<string, string>> = {}
const EMAIL_CONFIG = {
  from: "no Auth.js sender: the sender defaults to no-reply@<the app's host> when sent (migration guide)",
}
const MAILGUN_REGION =
  "kept on the provider (read when sending), default US as in Auth.js, which reads it in the factory"
for (const file of ["email", "nodemailer", "resend", "sendgrid", "postmark", "forwardemail"]) {
  DELIBERATE[`${file} none`] = { from: EMAIL_CONFIG.from }
  DELIBERATE[`${file} typical`] = {}
}
Object.assign(DELIBERATE, {
  "email none": {
    factory:
      "Email({}) does not throw: a missing `server` is a configuration error when the configuration is resolved (InvalidConfiguration)",
  },
  "email typical": {},
  "nodemailer none": {
    factory:
      "Nodemailer() does not throw: a missing `server` is a configuration error when the configuration is resolved (InvalidConfiguration)",
  },
  "mailgun none": { from: EMAIL_CONFIG.from, region: MAILGUN_REGION },
  "mailgun typical": { region: MAILGUN_REGION },
  "loops none": {
    from: EMAIL_CONFIG.from,
    apiKey:
      "no empty default key: a missing key is named in the error (set apiKey or AUTH_LOOPS_KEY)",
    transactionalId: "no empty default: a missing one is named in the error",
  },
  "loops typical": { from: "Loops sends Loops' template: no sender" },
  "credentials none": {},
  "credentials typical": {},
  "passkey none": {
    authenticationOptions:
      "the passkey defaults (5 min, user verification required) are applied by the flow, not the factory",
    registrationOptions: "same: resident key and user verification required by the flow",
    verifyAuthenticationOptions: "same: user verification required by the flow",
    verifyRegistrationOptions: "same: user verification required by the flow",
    formFields:
      "`type: email` and a placeholder; not `required`: an empty field signs in with a discoverable passkey",
    simpleWebAuthnBrowserVersion:
      "no CDN script: the page inlines @simplewebauthn/browser (CSP hash), no version to pick",
    challengeMaxAge: "Tessera's option: the challenge's life, 300 s",
    functions:
      "no simpleWebAuthn/getUserInfo/getRelayingParty defaults on the factory: the flow's, with the same relying-party defaults",
  },
})
DELIBERATE["passkey typical"] = DELIBERATE["passkey none"]!
DELIBERATE["webauthn none"] = {
  authenticationOptions: "the 5 min timeout is applied by the flow, not the factory",
  registrationOptions: "the 5 min timeout is applied by the flow, not the factory",
  formFields: DELIBERATE["passkey none"]!.formFields!,
  simpleWebAuthnBrowserVersion: DELIBERATE["passkey none"]!.simpleWebAuthnBrowserVersion!,
  challengeMaxAge: DELIBERATE["passkey none"]!.challengeMaxAge!,
  functions: DELIBERATE["passkey none"]!.functions!,
}
DELIBERATE["webauthn typical"] = DELIBERATE["webauthn none"]
const ERRORS =
  "the error names the service and status with the API's answer redacted (no link, token, address or key; it is logged)"
const NO_KEY =
  "a missing API key throws before sending (and is refused at start: flows/email/required-options.test.ts); Auth.js sends `Bearer undefined`"
Object.assign(DELIBERATE, {
  "resend send": { failure: ERRORS, "no key": NO_KEY },
  "sendgrid send": {
    failure: ERRORS,
    "no key": NO_KEY,
    "named from":
      "`Name <address>` sent as SendGrid's { email, name }: Auth.js sends it whole as `email`, which is no address (migration guide)",
  },
  "postmark send": { failure: ERRORS },
  "forwardemail send": { failure: ERRORS, "no key": NO_KEY },
  "mailgun send": {
    failure: ERRORS,
    "no key": NO_KEY,
    body: "`from` sent as given: Auth.js wraps it as `Mailgun <from>`, naming the service as sender (migration guide)",
    "named from": "same: Auth.js's `Mailgun <Acme <no-reply@acme.example>>` is no address",
  },
  "loops send": { failure: ERRORS },
  "default normalizeIdentifier": {
    result:
      "strict `local@domain` (no lists, display names or quotes, a dot in the domain, punycode): migration guide",
  },
  templates: {
    text: "the text part says what the html part says: heading, link, and the ignore line",
  },
})

// -- what is compared --------------------------------------------------------------------------

const plain = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value ?? null, (_, v: unknown) => (typeof v === "function" ? undefined : v)),
  )

/** A factory's provider, resolved as its library resolves it: non-functions, and the functions' names. */
function configShape(
  factory: Factory,
  options: Record<string, unknown>,
  mergeWith: (a: object, b: unknown) => Record<string, unknown>,
): Shape {
  let provider: Record<string, unknown>
  try {
    provider = factory(options)
  } catch (error) {
    return { factory: `throws ${(error as Error).name}` }
  }
  const { options: userOptions, ...defaults } = provider
  const config = mergeWith(defaults, userOptions)
  const shape: Shape = {}
  const functions: string[] = []
  for (const [key, value] of Object.entries(config)) {
    if (typeof value === "function") functions.push(key)
    else if (key === "simpleWebAuthn") functions.push(key)
    else shape[key] = plain(value)
  }
  shape.functions = functions
    .filter((name) => !["authorize", "sendVerificationRequest"].includes(name))
    .sort()
  // `authorize` and `sendVerificationRequest` are there in both (compared by behaviour).
  return shape
}

const LINK = "https://app.example.com/auth/callback/x?token=tok-1234567890&email=ada%40example.com"

/** One call of a sender with a fetch stand-in answering `status`: what it sent, or how it failed. */
async function sendShape(
  send: Send,
  provider: Record<string, unknown>,
  status: number,
  install: (provider: Record<string, unknown>, fetch: typeof globalThis.fetch) => () => void,
): Promise<Shape> {
  let sent: Request | undefined
  const standIn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    sent = new Request(input, { ...init, redirect: "manual" })
    const answer = JSON.stringify({ message: `refused ${LINK} for ada@example.com`, success: true })
    return new Response(answer, { status, headers: { "content-type": "application/json" } })
  }) as typeof globalThis.fetch
  const uninstall = install(provider, standIn)
  let error: unknown
  try {
    await send({
      identifier: "ada@example.com",
      url: LINK,
      token: "tok-1234567890",
      expires: new Date(Date.now() + 86400_000),
      provider,
      theme: {},
      request: new Request("https://app.example.com/auth/signin/x", { method: "POST" }),
    })
  } catch (e) {
    error = e
  } finally {
    uninstall()
  }
  const result: Shape = {}
  if (error) {
    const message = String((error as Error).message)
    result.error = {
      class: (error as Error).name,
      namesTheLink: message.includes("tok-1234567890"),
      namesTheAddress: message.includes("ada@example.com"),
      sent: sent !== undefined,
    }
  }
  if (sent && status < 300) {
    const url = new URL(sent.url)
    const headers = [...sent.headers.keys()].filter((name) => name !== "content-type").sort()
    const authorization = sent.headers.get("authorization")
    const type = sent.headers.get("content-type") ?? ""
    let body: Record<string, unknown>
    if (type.startsWith("multipart/form-data"))
      body = Object.fromEntries([...(await sent.formData()).entries()])
    else body = (await sent.json()) as Record<string, unknown>
    // The message's parts are compared in `templates`; here whether they carry the link.
    const parts = JSON.stringify(body)
    const fields = JSON.parse(
      parts.replace(/"(?:[^"\\]|\\.)*(?:tok-1234567890)(?:[^"\\]|\\.)*"/g, '"<with the link>"'),
    ) as unknown
    result.request = {
      method: sent.method,
      url: url.origin + url.pathname,
      headers,
      contentType: type.split(";")[0],
      authorization: authorization?.split(" ")[0] ?? null,
      credentials: authorization
        ? credentialsOf(authorization)
        : sent.headers.get("x-postmark-server-token"),
    }
    result.body = fields
  }
  return result
}

function credentialsOf(authorization: string): string {
  const [scheme, value = ""] = authorization.split(" ")
  return scheme === "Basic" ? atob(value) : value
}

/** Sender shapes: the typical provider answered 200 and 422, and with no API key. */
async function senderShapes(
  factory: Factory,
  file: string,
  mergeWith: (a: object, b: unknown) => Record<string, unknown>,
  install: (provider: Record<string, unknown>, fetch: typeof globalThis.fetch) => () => void,
): Promise<Shape> {
  const resolved = (options: Record<string, unknown>) => {
    const { options: user, ...defaults } = factory(options)
    return mergeWith(defaults, user)
  }
  const provider = resolved(TYPICAL[file]!)
  const send = provider.sendVerificationRequest as Send
  const ok = await sendShape(send, provider, 200, install)
  const { apiKey: _, ...keyless } = TYPICAL[file]!
  // A sender with a display name, as Auth.js's docs write `from` too.
  const named = await sendShape(
    send,
    resolved({ ...TYPICAL[file], from: NAMED_FROM }),
    200,
    install,
  )
  const namedBody = (named.body ?? {}) as Record<string, unknown>
  return {
    "named from": namedBody.from ?? namedBody.From ?? null,
    request: ok.request ?? ok.error,
    body: ok.body ?? null,
    failure: (await sendShape(send, provider, 422, install)).error ?? "resolves",
    "no key": (await sendShape(send, resolved(keyless), 200, install)).error ?? "sends",
  }
}

/** How a message for one link reads: the subject, the text part's lines, the html's link. */
function templateShape(message: { subject: string; text: string; html: string }): Shape {
  return {
    subject: message.subject,
    text: message.text.split("\n").filter(Boolean),
    // An attribute's `&amp;` is `&` (Tessera escapes it, Auth.js does not).
    htmlLinks: [...message.html.matchAll(/href="([^"]*)"/g)].map((m) =>
      m[1]!.replaceAll("&amp;", "&"),
    ),
    htmlButton: /<a [^>]*>\s*Sign\s+in\s*<\/a>/.test(message.html),
  }
}

function normalizerShape(normalize: (address: string) => string): Shape {
  const result: Shape = {}
  for (const address of ADDRESSES) {
    try {
      result[address] = normalize(address)
    } catch {
      result[address] = "refused"
    }
  }
  return { result }
}

const tokenShape = (token: string): Shape => ({
  format: /^[0-9a-f]+$/.test(token) ? "hex" : "other",
  length: token.length,
})

// -- Auth.js's side, recorded -------------------------------------------------------------------

async function record(dir: string): Promise<void> {
  const core = join(resolve(dir), "node_modules", "@auth", "core")
  if (!existsSync(core)) throw new Error(`No @auth/core under ${dir}`)
  const load = (file: string) => import(pathToFileURL(join(core, file)).href)
  const { merge: authjsMerge } = (await load("lib/utils/merge.js")) as {
    merge: (a: object, b: unknown) => Record<string, unknown>
  }
  const shapes: Record<string, Shape> = {}
  const factoryOf = async (file: string) =>
    ((await load(`providers/${file}.js`)) as { default: Factory }).default
  for (const file of FILES) {
    const factory = await factoryOf(file)
    shapes[`${file} none`] = configShape(factory, {}, authjsMerge)
    shapes[`${file} typical`] = configShape(factory, TYPICAL[file], authjsMerge)
  }
  // Auth.js's senders call the global fetch.
  const globalFetch = (_: unknown, fetch: typeof globalThis.fetch) => {
    const original = globalThis.fetch
    globalThis.fetch = fetch
    return () => void (globalThis.fetch = original)
  }
  for (const file of SENDERS)
    shapes[`${file} send`] = await senderShapes(
      await factoryOf(file),
      file,
      authjsMerge,
      globalFetch,
    )
  const email = (await load("lib/utils/email.js")) as {
    html: (p: object) => string
    text: (p: object) => string
  }
  const { host } = new URL(LINK)
  shapes.templates = templateShape({
    subject: `Sign in to ${host}`,
    text: email.text({ url: LINK, host }),
    html: email.html({ url: LINK, host, theme: {} }),
  })
  const { defaultNormalizer } = (await load("lib/actions/signin/send-token.js")) as {
    defaultNormalizer: (a: string) => string
  }
  shapes["default normalizeIdentifier"] = normalizerShape(defaultNormalizer)
  const { randomString } = (await load("lib/utils/web.js")) as {
    randomString: (n: number) => string
  }
  shapes["default generateVerificationToken"] = tokenShape(randomString(32))
  writeFileSync(FIXTURE, JSON.stringify(shapes, null, 1) + "\n")
}

if (process.env.AUTHJS_DIR) await record(process.env.AUTHJS_DIR)
const AUTHJS = JSON.parse(readFileSync(FIXTURE, "utf8")) as Record<string, Shape>

// -- Tessera's side -----------------------------------------------------------------------------

const tesseraFactory = async (file: string) =>
  ((await import(`@tessera/core/providers/${file}`)) as { default: Factory }).default

/** Tessera's HTTP mail providers send through `[customFetch]`. */
const viaCustomFetch = (
  provider: Record<string | symbol, unknown>,
  fetch: typeof globalThis.fetch,
) => {
  provider[customFetch] = fetch
  return () => void delete provider[customFetch]
}

function differences(ours: Shape, theirs: Shape): Record<string, unknown> {
  // A factory that throws has nothing else to compare.
  if (ours.factory !== undefined || theirs.factory !== undefined)
    return isDeepStrictEqual(ours.factory, theirs.factory)
      ? {}
      : { factory: { tessera: ours.factory ?? null, authjs: theirs.factory ?? null } }
  const differing: Record<string, unknown> = {}
  for (const key of new Set([...Object.keys(ours), ...Object.keys(theirs)])) {
    const [t, a] = [plain(ours[key]), plain(theirs[key])]
    if (!isDeepStrictEqual(t, a)) differing[key] = { tessera: t, authjs: a }
  }
  return differing
}

function expectOnlyDeliberate(name: string, ours: Shape) {
  const differing = differences(ours, AUTHJS[name]!)
  expect(Object.keys(differing).sort(), `${name}: ${JSON.stringify(differing)}`).toEqual(
    Object.keys(DELIBERATE[name] ?? {}).sort(),
  )
}

test("the fixture has every case, and DELIBERATE names only those", () => {
  const cases = [
    ...FILES.flatMap((file) => [`${file} none`, `${file} typical`]),
    ...SENDERS.map((file) => `${file} send`),
    "templates",
    "default normalizeIdentifier",
    "default generateVerificationToken",
  ]
  expect(Object.keys(AUTHJS).sort()).toEqual(cases.sort())
  for (const name of Object.keys(DELIBERATE)) expect(cases).toContain(name)
})

describe.each(FILES)("@tessera/core/providers/%s", (file) => {
  test.each(["none", "typical"])("with %s options, is configured as Auth.js's", async (kind) => {
    const factory = await tesseraFactory(file)
    expectOnlyDeliberate(
      `${file} ${kind}`,
      configShape(factory, kind === "none" ? {} : TYPICAL[file], merge),
    )
  })
})

describe.each(SENDERS)("@tessera/core/providers/%s sendVerificationRequest", (file) => {
  test("sends what Auth.js's sends, and fails as recorded", async () => {
    const shape = await senderShapes(await tesseraFactory(file), file, merge, viaCustomFetch)
    expectOnlyDeliberate(`${file} send`, shape)
  })
})

test("the default message reads as Auth.js's: subject, link, button", async () => {
  const { verificationMessage } = await import("@tessera/core/providers/nodemailer")
  const message = verificationMessage({ url: LINK, host: new URL(LINK).host, theme: {} })
  expectOnlyDeliberate("templates", templateShape(message))
})

test("the default normalizeIdentifier and token", () => {
  expectOnlyDeliberate("default normalizeIdentifier", normalizerShape(normalizeEmailAddress))
  expectOnlyDeliberate("default generateVerificationToken", tokenShape(defaultVerificationToken()))
})

test.each(["sveltekit", "express"])(
  "@tessera/%s/providers/* are core's factories",
  async (framework) => {
    for (const file of FILES) {
      const reexport = (await import(`@tessera/${framework}/providers/${file}`)) as {
        default: Factory
      }
      expect(reexport.default, file).toBe(await tesseraFactory(file))
    }
  },
)

/**
 * The passkey defaults Auth.js's factories carry (DELIBERATE: Tessera's flow
 * applies them) reach the browser: the options served for `Passkey()` and
 * `WebAuthn()` hold every value of Auth.js's `authenticationOptions` and
 * `registrationOptions`.
 */
describe.each(["passkey", "webauthn"])("%s(): the served options", (file) => {
  test("hold Auth.js's factory defaults", async () => {
    const factory = await tesseraFactory(file)
    const { config } = passkeyConfig({ providers: [factory({})] as never })
    const browser = new PasskeyBrowser(config)
    const authjs = AUTHJS[`${file} none`]!
    const authenticate = await browser.options({ action: "authenticate" }, file)
    expect(authenticate.body.options).toMatchObject(authjs.authenticationOptions as object)
    const register = await browser.options({ email: "new@example.com" }, file)
    expect(register.body.action).toBe("register")
    expect(register.body.options).toMatchObject(authjs.registrationOptions as object)
    // Deliberate, for WebAuthn() too (migration guide): Auth.js's leaves both `preferred`.
    expect(register.body.options.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "required",
    })
    expect(authenticate.body.options.userVerification).toBe("required")
  })
})
