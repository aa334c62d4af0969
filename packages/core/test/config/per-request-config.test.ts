/**
 * A new configuration object per request behaves like one configuration: `@hono/auth-js`'s
 * `initAuthConfig((c) => ({ ... }))`, SvelteKit's lazy `SvelteKitAuth(async (event) => ({ ... }))`
 * and an Express middleware that builds its configuration all hand core a new object on every
 * request. Core resolves each object anew, but its warnings are the process's, as in Auth.js:
 * each code said once per logger they go to (the console, or the app's `logger.warn`), and a
 * provider's once per provider; another app with a logger of its own still hears them.
 */
import { afterEach, expect, test, vi } from "vitest"
import { Auth, setEnvDefaults, type AuthConfig } from "@tessera/core"
import type { WarningCode } from "@tessera/core/types"
import { ORIGIN, SECRET } from "../harness/index.js"

afterEach(() => {
  vi.restoreAllMocks()
})

/** An OpenID provider on plain http (`insecure-issuer`): resolving it fetches nothing. */
const httpIssuer = (id: string) => ({
  id,
  name: id,
  type: "oidc" as const,
  issuer: `http://${id}.idp.test`,
  clientId: "client",
  clientSecret: "client-secret",
  dangerouslyAllowInsecureHttpRequests: true,
})

/**
 * The app's configuration as a new literal on every call, as `initAuthConfig((c) => ({ ... }))`
 * makes it: trustHost with no url and no allowedHosts (`trust-host-unbounded`), two providers
 * on http (`insecure-issuer`, each).
 */
const perRequest = (warn?: (code: WarningCode) => void) => (): AuthConfig => ({
  secret: SECRET,
  trustHost: true,
  providers: [httpIssuer("alpha"), httpIssuer("beta")],
  // A new logger object each time too, around the app's one `warn` function.
  ...(warn ? { logger: { warn, error: () => {} } } : {}),
})

/** Five requests, each with the object `config()` makes then. */
async function fiveRequests(config: () => AuthConfig) {
  for (let i = 0; i < 5; i++) {
    const response = await Auth(new Request(`${ORIGIN}/auth/providers`), config())
    expect(response.status).toBe(200)
  }
}

test("five requests with five objects of one app: each warning once, a provider's once per provider", async () => {
  const warnings: WarningCode[] = []
  const warn = (code: WarningCode) => void warnings.push(code)
  await fiveRequests(perRequest(warn))
  expect(warnings.sort()).toEqual(["insecure-issuer", "insecure-issuer", "trust-host-unbounded"])
})

test("two objects of one app, alternating: the warnings are said once between them", async () => {
  const warnings: WarningCode[] = []
  const make = perRequest((code) => void warnings.push(code))
  const [first, second] = [make(), make()]
  let i = 0
  await fiveRequests(() => (i++ % 2 ? second : first))
  expect(warnings.filter((code) => code === "trust-host-unbounded")).toHaveLength(1)
})

test("with no logger, the console hears each warning once per process", async () => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
  await fiveRequests(perRequest())
  const said = (code: string) =>
    warn.mock.calls.filter(([line]) => String(line).includes(`[${code}]`)).length
  expect(said("trust-host-unbounded")).toBe(1)
  expect(said("insecure-issuer")).toBe(2)
})

test("another app with a logger of its own still hears each warning, once", async () => {
  const first: WarningCode[] = []
  await fiveRequests(perRequest((code) => void first.push(code)))
  const second: WarningCode[] = []
  await fiveRequests(perRequest((code) => void second.push(code)))
  expect(first.filter((code) => code === "trust-host-unbounded")).toHaveLength(1)
  expect(second.filter((code) => code === "trust-host-unbounded")).toHaveLength(1)
})

test("setEnvDefaults on a new object per request: env-url-basepath-redundant once", () => {
  const warnings: WarningCode[] = []
  const warn = (code: WarningCode) => void warnings.push(code)
  const env = { AUTH_URL: `${ORIGIN}/api/auth`, AUTH_SECRET: SECRET }
  for (let i = 0; i < 5; i++) {
    setEnvDefaults(env, { providers: [], basePath: "/custom", logger: { warn } })
  }
  expect(warnings).toEqual(["env-url-basepath-redundant"])
})
