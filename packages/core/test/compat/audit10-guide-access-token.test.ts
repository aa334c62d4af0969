/**
 * The "Provider access tokens that stay fresh" sample of docs/sessions.md, run as
 * an app copies it: its `calendars(userId)` for a user the provider no longer
 * serves must answer with a redirect to sign in again (its `RefreshTokenError`
 * branch), not throw. The sample is read from the guide, so the guide is what
 * is tested.
 */
import { readFileSync } from "node:fs"
import ts from "typescript"
import { describe, expect, test } from "vitest"
import { getAccessToken, type AuthConfig } from "@tessera/core"
import { RefreshTokenError } from "@tessera/core/errors"
import { MemoryAdapter } from "@tessera/testing"

const guide = readFileSync(new URL("../../../../docs/sessions.md", import.meta.url), "utf8")

type Calendars = (userId: string) => Promise<Response>

/** The ```ts block that defines `calendars`, as JavaScript, bound to `config`. */
function calendarsSample(config: AuthConfig): Calendars {
  const block = [...guide.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .find((code) => code.includes("async function calendars("))
  if (!block) throw new Error("docs/sessions.md has no `calendars` sample")
  const body = block
    .split("\n")
    .filter((line) => !line.startsWith("import "))
    .join("\n")
  const js = ts.transpileModule(body, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText
  const make = new Function(
    "getAccessToken",
    "RefreshTokenError",
    "config",
    `${js}\nreturn calendars`,
  ) as (...args: unknown[]) => Calendars
  return make(getAccessToken, RefreshTokenError, config)
}

describe("docs/sessions.md: getAccessToken sample", () => {
  test("a user without a usable Google token is sent to sign in again", async () => {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser({
      id: "user-1",
      name: "Ada",
      email: "ada@example.com",
      emailVerified: null,
    })
    const config: AuthConfig = {
      secret: "s".repeat(40),
      url: "http://localhost:3000",
      adapter,
      providers: [
        {
          id: "google",
          name: "Google",
          type: "oidc",
          issuer: "https://accounts.google.com",
          clientId: "id",
          clientSecret: "secret",
        },
      ],
    }
    const calendars = calendarsSample(config)
    const response = await calendars(user.id)
    expect(response.status).toBeGreaterThanOrEqual(300)
    expect(response.status).toBeLessThan(400)
    expect(response.headers.get("location")).toContain("signin")
  })
})
