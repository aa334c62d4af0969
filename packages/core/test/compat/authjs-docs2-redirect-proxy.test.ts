/**
 * authjs.dev/getting-started/deployment#securing-a-preview-deployment, imports changed to
 * `@tessera/*`: `AUTH_REDIRECT_PROXY_URL` set on a stable deployment and a preview
 * deployment sharing `AUTH_SECRET`, an OIDC factory (Keycloak) registered at a real OpenID
 * Provider with the stable deployment's callback only. The stable deployment forwards only
 * to hosts in its `allowedHosts` (Tessera, on purpose).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest"
import { completeOidcLogin, startOidcProvider, type OidcProviderServer } from "@tessera/testing"
import { Auth, type AuthConfig } from "@tessera/core"
import Keycloak from "@tessera/core/providers/keycloak"
import { Jar } from "../harness/cookies.js"
import { SECRET } from "../harness/index.js"

const STABLE = "http://localhost:3000"
const PREVIEW = "http://preview-42.localhost:3001"
let idp: OidcProviderServer

beforeAll(async () => {
  idp = await startOidcProvider({ redirectUris: [`${STABLE}/auth/callback/keycloak`] })
})
afterAll(async () => {
  await idp?.stop()
})
afterEach(() => void vi.unstubAllEnvs())

/** One deployment's `Auth()` with a browser's cookie jar for it. */
function deployment(origin: string, config: AuthConfig) {
  const jar = new Jar()
  return async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (jar.size) headers.set("cookie", jar.header())
    const response = await Auth(new Request(new URL(path, origin), { ...init, headers }), config)
    jar.update(response)
    return response
  }
}

describe("AUTH_REDIRECT_PROXY_URL with an OIDC provider", () => {
  test("a preview deployment signs in through the stable deployment's callback", async () => {
    vi.stubEnv("AUTH_REDIRECT_PROXY_URL", `${STABLE}/auth`)
    const provider = () =>
      Keycloak({
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        issuer: idp.issuer,
        dangerouslyAllowInsecureHttpRequests: true,
      })
    const preview = deployment(PREVIEW, {
      secret: SECRET,
      trustHost: true,
      providers: [provider()],
    })
    const stable = deployment(STABLE, {
      secret: SECRET,
      trustHost: true,
      providers: [provider()],
      allowedHosts: ["localhost:3000", "*.localhost:3001"],
    })

    const { csrfToken } = (await (await preview("/auth/csrf")).json()) as { csrfToken: string }
    const start = await preview("/auth/signin/keycloak", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${PREVIEW}/dashboard` }),
    })
    const authorize = new URL(start.headers.get("location")!)
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${STABLE}/auth/callback/keycloak`)

    const back = await completeOidcLogin(authorize, { accountId: "ada" })
    expect(back.url.origin).toBe(STABLE)
    const forwarded = await stable(back.url.href)
    expect(forwarded.status).toBe(302)
    const target = new URL(forwarded.headers.get("location")!)
    expect(target.origin + target.pathname).toBe(`${PREVIEW}/auth/callback/keycloak`)

    const done = await preview(target.href)
    expect(done.headers.get("location")).toBe(`${PREVIEW}/dashboard`)
    const session = (await (await preview("/auth/session")).json()) as { user: { name: string } }
    expect(session.user.name).toBe("Ada")
  })
})
