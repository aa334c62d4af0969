/**
 * Issue 2: "a credentials provider without `authorize`: a configuration error that names the
 * problem (500 JSON for API actions, the error page for page actions, `logger.error` with the
 * cause)". That holds for `Credentials({ ... })` given options but no `authorize`, the way
 * such a provider is usually written, not only for a hand-written provider object.
 * `Credentials()` with no options at all keeps Auth.js's default (every sign-in refused).
 */
import { expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { ORIGIN, SECRET, recordingLogger } from "../harness/index.js"

function configWith(provider: AuthConfig["providers"][number]) {
  const { logger, errors } = recordingLogger()
  const config: AuthConfig = { secret: SECRET, trustHost: true, logger, providers: [provider] }
  return { config, errors }
}

test("Credentials({ credentials }) without authorize: 500 JSON on an API action, MissingAuthorize logged", async () => {
  const { config, errors } = configWith(
    Credentials({ credentials: { username: { label: "Username" } } } as any),
  )
  const response = await Auth(new Request(`${ORIGIN}/auth/session`), config)
  expect(response.status).toBe(500)
  expect(response.headers.get("content-type")).toMatch(/application\/json/)
  expect(errors.map((e) => e.name)).toContain("MissingAuthorize")
  expect(errors.find((e) => e.name === "MissingAuthorize")?.message).toMatch(
    /"credentials".*authorize/,
  )
})

test("Credentials({ id, name }) without authorize: the error page (500) on a page action", async () => {
  const { config, errors } = configWith(Credentials({ id: "login", name: "Login" } as any))
  const response = await Auth(new Request(`${ORIGIN}/auth/signin`), config)
  expect(response.status).toBe(500)
  expect(response.headers.get("content-type")).toMatch(/text\/html/)
  expect(errors.find((e) => e.name === "MissingAuthorize")?.message).toMatch(/"login"/)
})

test("Credentials() with no options is still valid (Auth.js's default: every sign-in refused)", async () => {
  const { config, errors } = configWith(Credentials())
  const response = await Auth(new Request(`${ORIGIN}/auth/providers`), config)
  expect(response.status).toBe(200)
  expect(errors).toEqual([])
})
