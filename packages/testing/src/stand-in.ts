/**
 * A loopback HTTP server that answers as any host, for testing code that calls
 * third-party APIs (OAuth providers, mail APIs) without the network.
 *
 * Give a provider `[customFetch]: standIn.fetch`: a request to
 * `https://api.github.com/user` then goes to
 * `http://127.0.0.1:<port>/__vhost/https/api.github.com/user`, where the route
 * registered for `GET https://api.github.com/user` answers it. The provider is
 * tested with its real default URLs, and every request is recorded.
 *
 * @example
 * ```ts
 * import { json, startStandIn } from "@tessera/testing"
 * import { customFetch } from "@tessera/core"
 * const standIn = await startStandIn()
 * standIn.on("GET", "https://api.github.com/user", () => json({ id: 1, login: "ada" }))
 * const provider = GitHub({ clientId, clientSecret, [customFetch]: standIn.fetch })
 * // ... sign in ...
 * standIn.requestsTo("https://api.github.com/user") // what the provider sent
 * await standIn.stop()
 * ```
 * @module
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * One request the stand-in received.
 *
 * @see {@link StandIn}
 */
export interface Recorded {
  method: string
  /** The URL as the client meant it (the virtual host for `customFetch` requests). */
  url: URL
  headers: Headers
  body: string
}

/**
 * Answers one route of a {@link StandIn}.
 *
 * @see {@link StandIn}
 */
export type StandInHandler = (request: Recorded) => Response | Promise<Response>

/**
 * A loopback HTTP server standing in for any host: routes by URL, every request recorded, and a
 * `fetch` that sends requests for the hosts it stands in for to it (`customFetch`).
 *
 * @param server The listening server.
 * @param origin Its `http://127.0.0.1:<port>`.
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export class StandIn {
  readonly requests: Recorded[] = []
  private readonly routes = new Map<string, StandInHandler>()

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  /** Listens on 127.0.0.1, on a port the OS picks. */
  static async start(): Promise<StandIn> {
    let standIn: StandIn | undefined
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on("data", (chunk: Buffer) => chunks.push(chunk))
      req.on("end", () => {
        standIn!
          .handle(
            req.method ?? "GET",
            req.url ?? "/",
            req.headers as Record<string, string>,
            Buffer.concat(chunks).toString(),
          )
          .then(async (response) => {
            const headers: Record<string, string> = {}
            response.headers.forEach((value, key) => (headers[key] = value))
            res.writeHead(response.status, headers)
            res.end(Buffer.from(await response.arrayBuffer()))
          })
          .catch((error) => res.writeHead(500).end(String(error)))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.address() as AddressInfo
    standIn = new StandIn(server, `http://127.0.0.1:${port}`)
    return standIn
  }

  /**
   * Answers `method url` with `handler`. `url` is absolute; its query is ignored
   * when matching; a path ending in `/*` matches every path below it.
   */
  on(method: string, url: string, handler: StandInHandler): this {
    const u = new URL(url.replace(/\/\*$/, "/"))
    const key = `${method.toUpperCase()} ${u.origin}${u.pathname}`
    this.routes.set(url.endsWith("/*") ? `${key}*` : key, handler)
    return this
  }

  private async handle(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string,
  ): Promise<Response> {
    const vhost = /^\/__vhost\/(https?)\/([^/]+)(\/.*)?$/.exec(path)
    const url = vhost
      ? new URL(`${vhost[1]}://${vhost[2]}${vhost[3] ?? "/"}`)
      : new URL(path, this.origin)
    const recorded: Recorded = { method, url, headers: new Headers(headers), body }
    this.requests.push(recorded)
    const key = `${method} ${url.origin}${url.pathname}`
    const handler =
      this.routes.get(key) ??
      [...this.routes].find(
        ([route]) => route.endsWith("*") && key.startsWith(route.slice(0, -1)),
      )?.[1]
    if (!handler) return new Response(`no route for ${method} ${url.href}`, { status: 404 })
    return handler(recorded)
  }

  /** A `customFetch` that sends every request to this server, keeping the intended URL. */
  readonly fetch: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const target =
      url.origin === this.origin
        ? url.href
        : `${this.origin}/__vhost/${url.protocol.slice(0, -1)}/${url.host}${url.pathname}${url.search}`
    if (input instanceof Request) return fetch(new Request(target, input), init)
    return fetch(target, init)
  }

  /** The requests received for `url` (origin and path; any query). */
  requestsTo(url: string): Recorded[] {
    const u = new URL(url)
    return this.requests.filter((r) => r.url.origin === u.origin && r.url.pathname === u.pathname)
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve())
      this.server.closeAllConnections()
    })
  }
}

/**
 * Starts a {@link StandIn}.
 *
 * @see {@link StandIn}
 */
export function startStandIn(): Promise<StandIn> {
  return StandIn.start()
}

/**
 * A JSON response.
 *
 * @param body The value to send as JSON.
 * @param status The status (default 200).
 * @param headers More headers.
 * @see [RFC 8259, JSON](https://www.rfc-editor.org/rfc/rfc8259.html)
 */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  })
}

/**
 * The body of a recorded request as JSON (`undefined` when it is not JSON).
 *
 * @param request The recorded request.
 * @see {@link StandIn}
 */
export function readJson(request: Recorded): any {
  try {
    return JSON.parse(request.body)
  } catch {
    return undefined
  }
}

/**
 * The body of a recorded form request (`application/x-www-form-urlencoded` or
 * `multipart/form-data`).
 *
 * @param request The recorded request.
 * @see [HTML: form submission](https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#form-submission-2)
 */
export async function readForm(request: Recorded): Promise<URLSearchParams> {
  const type = request.headers.get("content-type") ?? ""
  if (!type.startsWith("multipart/form-data")) return new URLSearchParams(request.body)
  const form = await new Request("http://stand-in.invalid/", {
    method: "POST",
    headers: { "content-type": type },
    body: request.body,
  }).formData()
  const params = new URLSearchParams()
  for (const [key, value] of form) if (typeof value === "string") params.append(key, value)
  return params
}
