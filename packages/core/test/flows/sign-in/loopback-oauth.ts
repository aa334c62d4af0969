/**
 * A loopback OAuth 2 authorization server in a few lines of node:http:
 * `/authorize` answers at once with a code for the profile the test chose,
 * `/token` swaps the code (PKCE-checked, single use) for an access token,
 * `/userinfo` returns the profile. Enough to drive real OAuth sign-ins through
 * `Auth()` with profiles (ids, e-mails) each test picks.
 */
import { createHash, randomBytes } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Auth, type AuthConfig } from "@tessera/core"
import { csrfToken, get, Jar, post } from "../../harness/index.js"

export interface StandinProfile {
  id: string
  email?: string | null
  name?: string
}

export interface Standin {
  base: string
  /** The profile the next authorization hands out. */
  next: StandinProfile | undefined
  /** A provider config for it (`type: "oauth"`, http allowed on loopback). */
  provider(options?: Record<string, unknown>): any
  stop(): Promise<void>
}

export async function startStandin(): Promise<Standin> {
  const codes = new Map<
    string,
    { profile: StandinProfile; challenge: string | null; redirectUri: string }
  >()
  const tokens = new Map<string, StandinProfile>()
  const standin: Standin = {} as Standin

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, standin.base)
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
    }
    if (url.pathname === "/authorize") {
      const profile = standin.next
      if (!profile) return json(500, { error: "no profile set" })
      const code = randomBytes(16).toString("hex")
      const redirectUri = url.searchParams.get("redirect_uri")!
      codes.set(code, { profile, challenge: url.searchParams.get("code_challenge"), redirectUri })
      const back = new URL(redirectUri)
      back.searchParams.set("code", code)
      const state = url.searchParams.get("state")
      if (state) back.searchParams.set("state", state)
      return res.writeHead(302, { location: back.href }).end()
    }
    if (url.pathname === "/token" && req.method === "POST") {
      let body = ""
      for await (const chunk of req) body += chunk
      const form = new URLSearchParams(body)
      const grant = codes.get(form.get("code") ?? "")
      codes.delete(form.get("code") ?? "")
      const verifier = form.get("code_verifier") ?? ""
      const challenge = createHash("sha256").update(verifier).digest("base64url")
      if (
        !grant ||
        (grant.challenge && grant.challenge !== challenge) ||
        form.get("redirect_uri") !== grant.redirectUri
      ) {
        return json(400, { error: "invalid_grant" })
      }
      const accessToken = randomBytes(16).toString("hex")
      tokens.set(accessToken, grant.profile)
      return json(200, {
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: 3600,
        scope: "profile",
      })
    }
    if (url.pathname === "/userinfo") {
      const profile = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""))
      return profile ? json(200, profile) : json(401, { error: "invalid_token" })
    }
    json(404, { error: "not_found" })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  standin.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  standin.next = undefined
  standin.provider = (options = {}) => ({
    id: "standin",
    name: "Stand-in",
    type: "oauth",
    clientId: "standin-client",
    clientSecret: "standin-secret",
    authorization: `${standin.base}/authorize`,
    token: `${standin.base}/token`,
    userinfo: `${standin.base}/userinfo`,
    checks: ["pkce", "state"],
    dangerouslyAllowInsecureHttpRequests: true,
    ...options,
  })
  standin.stop = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return standin
}

/**
 * A whole OAuth sign-in as a browser does it: POST signin/<id> with CSRF, the
 * authorization request to the stand-in, then the callback with the jar.
 */
export async function oauthSignIn(
  config: AuthConfig,
  standin: Standin,
  profile: StandinProfile,
  jar = new Jar(),
  providerId = "standin",
): Promise<{ response: Response; jar: Jar }> {
  standin.next = profile
  const { token } = await csrfToken(config, jar)
  const start = await Auth(
    post(`/auth/signin/${providerId}`, { csrfToken: token }, { jar }),
    config,
  )
  jar.update(start)
  const authorization = start.headers.get("location")
  if (start.status !== 302 || !authorization?.startsWith(standin.base)) {
    throw new Error(`sign-in did not redirect to the provider: ${start.status} ${authorization}`)
  }
  const answer = await fetch(authorization, { redirect: "manual" })
  const callback = answer.headers.get("location")!
  const response = await Auth(get(callback, { jar }), config)
  jar.update(response)
  return { response, jar }
}
