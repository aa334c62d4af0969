/**
 * Red team 6: the OAuth sign-in surface of the provider modules, driven through
 * `Auth()` with the providers' real endpoint URLs answered by a StandIn.
 *
 * - A profile without the user's id (a provider answering 200 with an error
 *   object, or a changed API) must sign nobody in: a module's
 *   `String(profile.id)` made it the account `"undefined"`, which every such
 *   sign-in then shared, so the second person became the first.
 * - Text a provider sends back (an error message in a token or profile answer)
 *   reaches the log through the module's thrown message: it must not start a
 *   log line of its own (log injection).
 * - An access token a module puts in a request's path (HubSpot's token-info
 *   URL) must not reach the log when that request fails.
 * - A callback URL anyone can make (no code; a made-up code, at a module's own
 *   code exchange) is a refusal logged at debug level, not a server fault: a
 *   visitor must not be able to fill the error log (SECURITY.md).
 *
 * Pinned as safe (no other test covers them): a provider endpoint answering
 * with a redirect to another host is not followed (WeChat's exchange carries
 * the AppSecret in its URL; a userinfo request the bearer token), and a profile
 * whose fields have the wrong types is refused with nothing stored.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { customFetch, type AuthConfig } from "@tessera/core"
import AzureDevOps from "@tessera/core/providers/azure-devops"
import Bungie from "@tessera/core/providers/bungie"
import HubSpot from "@tessera/core/providers/hubspot"
import Reddit from "@tessera/core/providers/reddit"
import Todoist from "@tessera/core/providers/todoist"
import WeChat from "@tessera/core/providers/wechat"
import { Browser, recordingLogger, SECRET } from "../harness/index.js"
import { memoryBackend, sqliteBackend } from "../harness/backends.js"
import { json, StandIn } from "../harness/stand-in.js"

let standIn: StandIn
beforeAll(async () => {
  standIn = await StandIn.start()
})
afterAll(() => standIn?.stop())

/** An app with one provider module whose every request goes to the StandIn. */
function app(provider: (options: any) => unknown, options: Record<string, unknown> = {}) {
  const log = recordingLogger()
  const backend = memoryBackend()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    debug: true,
    logger: log.logger,
    adapter: backend.adapter,
    providers: [
      provider({
        clientId: "client-1",
        clientSecret: "client-secret-1",
        ...options,
        [customFetch]: standIn.fetch,
      }) as AuthConfig["providers"][number],
    ],
  }
  return { config, log, backend }
}

/** A sign-in started in a new browser, then the provider's callback with `code` (and the state). */
async function signIn(config: AuthConfig, id: string, code: string | undefined) {
  const browser = new Browser(config)
  const start = await browser.startSignIn(id)
  const state = new URL(start.headers.get("location")!).searchParams.get("state")
  const query = new URLSearchParams({
    ...(code !== undefined ? { code } : {}),
    ...(state ? { state } : {}),
  })
  const done = await browser.request(`/auth/callback/${id}?${query}`)
  return { done, session: await browser.session() }
}

const logText = (log: ReturnType<typeof recordingLogger>) =>
  log.logged.map((entry) => `${entry.message}\n${entry.cause ?? ""}`).join("\n")

test("a profile without the user's id signs nobody in: two people do not become one account", async () => {
  const { config, backend } = app(Todoist)
  standIn.on("POST", "https://todoist.com/oauth/access_token", () =>
    json({ access_token: "at-todoist", token_type: "bearer" }),
  )
  // Answered with 200, but no user: an error object, or a changed API.
  standIn.on("GET", "https://api.todoist.com/api/v1/user", () =>
    json({ error: "Service unavailable" }),
  )

  const first = await signIn(config, "todoist", "code-of-ada")
  const second = await signIn(config, "todoist", "code-of-bob")

  for (const { done, session } of [first, second]) {
    expect(new URL(done.headers.get("location")!).searchParams.get("error")).toBe("Configuration")
    expect(session).toBeNull()
  }
  expect(await backend.users()).toEqual([])
  expect(await backend.accounts()).toEqual([])
})

const FORGED = "\n[tessera][error] AdapterError: forged by the provider"

test.each([
  {
    name: "Azure DevOps' token endpoint error",
    provider: AzureDevOps,
    options: {},
    answer() {
      standIn.on("POST", "https://app.vssps.visualstudio.com/oauth2/token", () =>
        json({ Error: `invalid_grant${FORGED}` }, 400),
      )
    },
  },
  {
    name: "Bungie's profile error status",
    provider: Bungie,
    options: { apiKey: "api-key-1" },
    answer() {
      standIn.on("POST", "https://www.bungie.net/platform/app/oauth/token/", () =>
        json({ access_token: "at-bungie", token_type: "Bearer", expires_in: 3600 }),
      )
      standIn.on("GET", "https://www.bungie.net/Platform/User/GetMembershipsForCurrentUser/", () =>
        json({ ErrorCode: 99, ErrorStatus: `WebAuthRequired${FORGED}`, Message: "" }),
      )
    },
  },
])("$name cannot start a log line of its own", async ({ provider, options, answer }) => {
  const { config, log, backend } = app(provider, options)
  answer()
  const { done, session } = await signIn(config, (provider as any)(options).id, "code-1")

  expect(done.status).toBe(302)
  expect(session).toBeNull()
  expect(logText(log)).toContain("[tessera][error] AdapterError: forged")
  for (const entry of log.logged) {
    expect(entry.message).not.toMatch(/[\r\n]/)
    expect(entry.cause ?? "").not.toMatch(/[\r\n]/)
  }
  expect(await backend.users()).toEqual([])
})

test("HubSpot: a failed token-info request does not log the access token it carried in its path", async () => {
  const { config, log } = app(HubSpot)
  const accessToken = "CJSP5qf1KhICAQEYs-gDIIGOBii1hQIyGQAf3xBKmlwHjX7OIpuIFEavB2-qYAGQsF4"
  standIn.on("POST", "https://api.hubapi.com/oauth/v1/token", () =>
    json({ access_token: accessToken, token_type: "bearer", expires_in: 1800 }),
  )
  standIn.on("GET", "https://api.hubapi.com/oauth/v1/access-tokens/*", () =>
    json({ status: "error", message: "internal error" }, 503),
  )

  const { done, session } = await signIn(config, "hubspot", "code-1")

  expect(done.status).toBe(302)
  expect(session).toBeNull()
  expect(
    standIn.requestsTo(`https://api.hubapi.com/oauth/v1/access-tokens/${accessToken}`),
  ).not.toEqual([])
  expect(logText(log)).toContain("answered 503")
  expect(logText(log)).not.toContain(accessToken)
  expect(
    JSON.stringify(
      log.errors.map((error) => [
        error.message,
        error.stack,
        String(error.cause && (error.cause as { err?: Error }).err?.stack),
      ]),
    ),
  ).not.toContain(accessToken)
})

test.each([
  {
    name: "a callback with its state but no code",
    provider: Todoist,
    code: undefined,
    answer() {},
  },
  {
    name: "a made-up code at a module's own token request (Reddit: invalid_grant)",
    provider: Reddit,
    code: "made-up",
    answer() {
      standIn.on("POST", "https://www.reddit.com/api/v1/access_token", () =>
        json({ error: "invalid_grant" }, 400),
      )
    },
  },
  {
    name: "a made-up code at WeChat's GET exchange (errcode 40029)",
    provider: WeChat,
    code: "made-up",
    answer() {
      standIn.on("GET", "https://api.weixin.qq.com/sns/oauth2/access_token", () =>
        json({ errcode: 40029, errmsg: "invalid code" }),
      )
    },
  },
])("$name is a refusal at debug level, not a server fault", async ({ provider, code, answer }) => {
  const { config, log, backend } = app(provider)
  answer()
  const id = (provider as any)({}).id as string
  const { done, session } = await signIn(config, id, code)

  expect(new URL(done.headers.get("location")!).searchParams.get("error")).toBe(
    "OAuthCallbackError",
  )
  expect(session).toBeNull()
  expect(log.errors).toEqual([])
  expect(log.refusals.map((error) => (error as { type?: string }).type)).toEqual([
    "OAuthCallbackError",
  ])
  expect(logText(log)).not.toContain("client-secret-1")
  expect(await backend.users()).toEqual([])
})

describe("pinned: hostile provider answers", () => {
  const elsewhere = () => `${standIn.origin}/__vhost/https/collector.example/take`

  test("a redirect from WeChat's exchange (the AppSecret in its URL) or a userinfo endpoint is not followed", async () => {
    standIn.on("GET", "https://collector.example/take", () => json({ id: "1", openid: "o" }))
    standIn.on("GET", "https://api.weixin.qq.com/sns/oauth2/access_token", () =>
      Response.redirect(elsewhere(), 302),
    )
    const wechat = app(WeChat)
    const first = await signIn(wechat.config, "wechat", "code-1")

    standIn.on("POST", "https://todoist.com/oauth/access_token", () =>
      json({ access_token: "at-todoist-2", token_type: "bearer" }),
    )
    standIn.on("GET", "https://api.todoist.com/api/v1/user", () =>
      Response.redirect(elsewhere(), 307),
    )
    const todoist = app(Todoist)
    const second = await signIn(todoist.config, "todoist", "code-2")

    for (const { done, session } of [first, second]) {
      expect(new URL(done.headers.get("location")!).searchParams.get("error")).toBe(
        "OAuthCallbackError",
      )
      expect(session).toBeNull()
    }
    expect(standIn.requestsTo("https://collector.example/take")).toEqual([])
    expect(logText(wechat.log)).not.toContain("client-secret-1")
  })

  test("a profile with fields of the wrong types is refused, and no half-made user or account is stored", async () => {
    const backend = await sqliteBackend()
    try {
      const { config } = app(Todoist)
      config.adapter = backend.adapter
      standIn.on("POST", "https://todoist.com/oauth/access_token", () =>
        json({ access_token: "at-todoist-3", token_type: "bearer" }),
      )
      standIn.on("GET", "https://api.todoist.com/api/v1/user", () =>
        json({ id: "42", full_name: { first: "Ada" }, avatar_big: [1], email: ["a@x.example"] }),
      )
      const { done, session } = await signIn(config, "todoist", "code-3")

      expect(done.status).toBe(302)
      expect(new URL(done.headers.get("location")!).pathname).toBe("/auth/error")
      expect(session).toBeNull()
      expect(await backend.users()).toEqual([])
      expect(await backend.accounts()).toEqual([])
    } finally {
      await backend.close()
    }
  })
})
