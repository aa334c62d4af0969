/**
 * `Auth()` served over real HTTP on the loopback interface: for peers that
 * call the app themselves (an OpenID provider posting back-channel logout
 * tokens) and for real browsers (the built-in pages, passkeys). The
 * configuration is read per request, so it can be made after the origin is
 * known, or swapped by a test.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { Auth, type AuthConfig } from "@tessera/core"
import { listenOnLoopback } from "@tessera/testing"

export interface AuthServer {
  origin: string
  /** Requests the server answered, by path (a browser's favicon request shows up here). */
  paths: string[]
  stop(): Promise<void>
}

export interface ServeOptions {
  /**
   * The origin at `http://localhost:<port>` instead of 127.0.0.1: a secure
   * context with a domain, as WebAuthn needs (the browser maps localhost to
   * 127.0.0.1). Requests are built on the Host they were sent to, so the same
   * server also answers at 127.0.0.1.
   */
  localhost?: boolean
  /** Paths outside /auth/ get a plain home page instead of going to `Auth()`. */
  home?: boolean
  /** Told of a request that threw (the response is a bare 500). */
  onError?: (error: unknown) => void
}

const HOME = '<!doctype html><html lang="en"><title>Home</title><main><h1>Home</h1></main>'

async function send(res: ServerResponse, response: Response): Promise<void> {
  const out: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") out[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length) out["set-cookie"] = cookies
  res.writeHead(response.status, out)
  res.end(Buffer.from(await response.arrayBuffer()))
}

export async function serveAuth(
  config: () => AuthConfig,
  options: ServeOptions = {},
): Promise<AuthServer> {
  const paths: string[] = []
  const server = createServer()
  const loopback = await listenOnLoopback(server)
  const origin = options.localhost
    ? loopback.origin.replace("//127.0.0.1:", "//localhost:")
    : loopback.origin
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value)
    }
    // At the Host the client used (localhost or 127.0.0.1), as a framework builds the URL.
    const url = new URL(req.url ?? "/", req.headers.host ? `http://${req.headers.host}` : origin)
    paths.push(url.pathname)
    if (options.home && !url.pathname.startsWith("/auth/")) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      res.end(HOME)
      return
    }
    const hasBody = req.method !== "GET" && req.method !== "HEAD"
    const request = new Request(url, {
      method: req.method,
      headers,
      body: hasBody ? Buffer.concat(chunks) : undefined,
    })
    await send(res, await Auth(request, config() as Omit<AuthConfig, "raw">))
  }
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error) => {
      options.onError?.(error)
      res.writeHead(500).end()
    })
  })
  return { origin, paths, stop: loopback.stop }
}
