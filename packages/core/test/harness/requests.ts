/**
 * Requests for `Auth()`: `get` and `post` build real `Request`s (with the jar's
 * cookies), `csrfToken` and `signIn` are the steps most flows start with.
 * Everything goes through `Auth()`; nothing here reaches inside.
 */
import { Auth, type AuthConfig } from "@tessera/core"
import { ORIGIN } from "./config.js"
import { Jar } from "./cookies.js"

export interface RequestOptions {
  origin?: string
  jar?: Jar
  headers?: Record<string, string>
}

function headersFor(options: RequestOptions): Headers {
  const headers = new Headers(options.headers)
  if (options.jar && options.jar.size && !headers.has("cookie"))
    headers.set("cookie", options.jar.header())
  return headers
}

export function get(path: string, options: RequestOptions = {}): Request {
  return new Request(new URL(path, options.origin ?? ORIGIN), { headers: headersFor(options) })
}

/** A form POST (or JSON with `json: true`). */
export function post(
  path: string,
  body: Record<string, unknown>,
  options: RequestOptions & { json?: boolean } = {},
): Request {
  const headers = headersFor(options)
  let payload: string
  if (options.json) {
    headers.set("content-type", "application/json")
    payload = JSON.stringify(body)
  } else {
    headers.set("content-type", "application/x-www-form-urlencoded")
    payload = new URLSearchParams(body as Record<string, string>).toString()
  }
  return new Request(new URL(path, options.origin ?? ORIGIN), {
    method: "POST",
    headers,
    body: payload,
  })
}

/** GET /auth/csrf: the token, with its cookie stored in the jar. */
export async function csrfToken(
  config: AuthConfig,
  jar = new Jar(),
  origin = ORIGIN,
  basePath = "/auth",
): Promise<{ token: string; jar: Jar }> {
  const response = await Auth(get(`${basePath}/csrf`, { origin, jar }), config)
  if (response.status !== 200) throw new Error(`csrf answered ${response.status}`)
  jar.update(response)
  const { csrfToken: token } = (await response.json()) as { csrfToken: string }
  return { token, jar }
}

/** Signs in through POST /auth/callback/credentials; the jar then holds the session cookie. */
export async function signIn(
  config: AuthConfig,
  fields: Record<string, string> = { username: "ada", password: "correct horse" },
  options: { origin?: string; jar?: Jar; basePath?: string; providerId?: string } = {},
): Promise<{ response: Response; jar: Jar }> {
  const origin = options.origin ?? ORIGIN
  const basePath = options.basePath ?? "/auth"
  // With skipCSRFCheck there is no token to fetch (the csrf action answers 404).
  const { token, jar } = config.skipCSRFCheck
    ? { token: "", jar: options.jar ?? new Jar() }
    : await csrfToken(config, options.jar, origin, basePath)
  const response = await Auth(
    post(
      `${basePath}/callback/${options.providerId ?? "credentials"}`,
      { ...fields, csrfToken: token },
      { origin, jar },
    ),
    config,
  )
  jar.update(response)
  return { response, jar }
}
