/**
 * Red team, round 14: session management as an attacker drives it, with
 * `debug: true` and every log line kept. What held, kept as regression tests:
 *
 * - ending another user's session by id answers exactly like an unknown id,
 *   whatever the body's content type;
 * - a copied cookie whose session was just revoked (JWT: still within
 *   `revalidateAge`, where a plain session check trusts it) manages nothing:
 *   no session list, no update, no second factor set up, disabled or looked at,
 *   no "sign out everywhere";
 * - no log line, at any level, holds a session cookie, a CSRF token or a
 *   session record's id.
 */
import { describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { MemoryAdapter } from "@tessera/testing"
import { ADA, csrfToken, get, Jar, post, SECRET } from "../harness/index.js"

const MALLORY = { id: "user-2", name: "Mallory", email: "mallory@example.com", image: null }

/** Every call to the logger, as text: messages, metadata and errors with their causes. */
function everyLine() {
  const lines: string[] = []
  const text = (value: unknown): string => {
    if (value instanceof Error)
      return `${value.name} ${value.message} ${value.stack ?? ""} ${text(value.cause)}`
    try {
      return JSON.stringify(value) ?? String(value)
    } catch {
      return String(value)
    }
  }
  const record =
    (level: string) =>
    (...args: unknown[]) =>
      void lines.push(`${level} ${args.map(text).join(" ")}`)
  return {
    lines,
    logger: { error: record("error"), warn: record("warn"), debug: record("debug") },
  }
}

function app(strategy: "jwt" | "database") {
  const adapter = MemoryAdapter()
  for (const user of [ADA, MALLORY])
    adapter.store.users.set(user.id!, {
      ...user,
      id: user.id!,
      email: user.email!,
      emailVerified: null,
      image: null,
    })
  const log = everyLine()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    debug: true,
    adapter,
    session: { strategy },
    logger: log.logger,
    rateLimit: { store: new MemoryRateLimitStore() },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username }) =>
          username === "ada" ? { ...ADA } : username === "mallory" ? { ...MALLORY } : null,
      }),
    ],
  }
  return { config, log }
}

async function signInAs(config: AuthConfig, username: string): Promise<Jar> {
  const jar = new Jar()
  const { token } = await csrfToken(config, jar)
  const response = await Auth(
    post("/auth/callback/credentials", { username, password: "x", csrfToken: token }, { jar }),
    config,
  )
  jar.update(response)
  return jar
}

/** A CSRF-checked POST from the browser holding `jar` (its own token, from the same site). */
async function act(
  config: AuthConfig,
  jar: Jar,
  path: string,
  body: Record<string, unknown> = {},
  json = false,
) {
  const { token } = await csrfToken(config, jar)
  const response = await Auth(post(path, { ...body, csrfToken: token }, { jar, json }), config)
  jar.update(response)
  return response
}

async function listed(config: AuthConfig, jar: Jar) {
  const response = await Auth(get("/auth/sessions", { jar }), config)
  return response.status === 200 ? ((await response.json()) as { id: string }[]) : response.status
}

describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
  test("another user's session id, in a form or JSON body: answered like an unknown id", async () => {
    const { config } = app(strategy)
    const ada = await signInAs(config, "ada")
    const mallory = await signInAs(config, "mallory")
    const [victim] = (await listed(config, ada)) as { id: string }[]
    const answers = []
    for (const json of [false, true]) {
      for (const id of [victim!.id, "0".repeat(32)]) {
        const response = await act(config, mallory, "/auth/sessions/revoke", { id }, json)
        answers.push(`${response.status} ${await response.text()}`)
      }
    }
    expect(new Set(answers).size).toBe(1)
    expect(answers[0]).toMatch(/^404 /)
    expect(await listed(config, ada)).toHaveLength(1)
  })

  test("a copied cookie whose session was revoked manages nothing, and no log line names a cookie, token or session id", async () => {
    const { config, log } = app(strategy)
    const phone = await signInAs(config, "ada")
    const laptop = await signInAs(config, "ada")
    const mallory = await signInAs(config, "mallory")
    const ids = [
      ...((await listed(config, phone)) as { id: string }[]),
      ...((await listed(config, mallory)) as { id: string }[]),
    ].map((s) => s.id)
    expect(ids).toHaveLength(3)
    // The thief's copy of the laptop's cookies, then Ada ends the laptop's session from her phone.
    const thief = new Jar(Object.fromEntries(laptop))
    const [laptopSession] = (
      (await listed(config, laptop)) as { id: string; current?: boolean }[]
    ).filter((s) => s.current)
    const revoked = await act(config, phone, "/auth/sessions/revoke", { id: laptopSession!.id })
    expect(revoked.status).toBe(200)

    expect(await listed(config, thief)).toBe(401)
    for (const path of ["/auth/two-factor/setup", "/auth/two-factor/disable"]) {
      expect((await act(config, thief, path, { code: "123456" })).status, path).toBe(401)
    }
    expect((await Auth(get("/auth/two-factor/status", { jar: thief }), config)).status).toBe(401)
    await act(config, thief, "/auth/signout", { scope: "all" })
    expect(await listed(config, phone)).toHaveLength(1)
    const update = await act(config, new Jar(Object.fromEntries(laptop)), "/auth/session", {
      data: "{}",
    })
    expect(await update.json()).toBeNull()

    // Ada signs out everywhere else, then everywhere.
    expect((await act(config, phone, "/auth/signout", { scope: "others" })).status).toBe(302)
    expect((await act(config, phone, "/auth/signout", { scope: "all" })).status).toBe(302)

    const secrets = [
      ...[phone, laptop, mallory].flatMap((jar) => [...jar.values()]),
      ...[...phone.values()].flatMap((value) => value.split("|")),
      ...ids,
    ].filter((value) => value.length >= 16)
    expect(log.lines.length).toBeGreaterThan(0)
    for (const line of log.lines) {
      for (const secret of secrets) expect(line).not.toContain(secret)
      expect(line).not.toMatch(/^error /)
    }
  })
})
