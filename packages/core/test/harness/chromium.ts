/**
 * Real Chromium for the browser tests (the built-in pages, passkeys): the
 * system browser with the flags every test launches it with, and a node:http
 * server around `Auth()` (under /auth, a plain home page elsewhere) at
 * http://localhost, which WebAuthn accepts as a secure context with a domain.
 * Kept apart from the rest of the harness so playwright-core loads only here.
 */
import { existsSync } from "node:fs"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { chromium, type Browser } from "playwright-core"
import { Auth, type AuthConfig } from "@tessera/core"

export const CHROMIUM = "/usr/bin/chromium"

/** False where the machine has no Chromium: the browser tests are skipped, with a warning. */
export const hasChromium = existsSync(CHROMIUM)

/** Chromium, headless, quiet (no network of its own), `localhost` resolved to 127.0.0.1. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--host-resolver-rules=MAP localhost 127.0.0.1",
    ],
  })
}

async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v))
    else if (value !== undefined) headers.set(name, value)
  }
  const body =
    chunks.length && req.method !== "GET" && req.method !== "HEAD"
      ? Buffer.concat(chunks)
      : undefined
  // The URL at the Host the browser used (localhost or 127.0.0.1), as a framework would build it.
  const url = new URL(req.url!, `http://${req.headers.host ?? "localhost"}`)
  return new Request(url, { method: req.method, headers, body })
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length) headers["set-cookie"] = cookies
  res.writeHead(response.status, headers)
  res.end(Buffer.from(await response.arrayBuffer()))
}

export interface AuthServer {
  /** `http://localhost:<port>`. */
  readonly origin: string
  /** Every request path the server saw, in order (a favicon request shows up here). */
  readonly paths: string[]
  close(): Promise<void>
}

/**
 * A server on 127.0.0.1 answering /auth/* with `Auth(request, config())` (the
 * configuration is read per request, so a test can swap it) and anything else
 * with a home page.
 *
 * @param config The configuration of each request.
 * @param onError Told of a request that threw (the response is a bare 500).
 */
export async function serveAuth(
  config: () => AuthConfig,
  onError: (error: unknown) => void = () => {},
): Promise<AuthServer> {
  const paths: string[] = []
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    paths.push(new URL(req.url!, "http://localhost").pathname)
    const request = await toRequest(req)
    if (new URL(request.url).pathname.startsWith("/auth/"))
      return send(res, await Auth(request, config() as Omit<AuthConfig, "raw">))
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    res.end('<!doctype html><html lang="en"><title>Home</title><main><h1>Home</h1></main>')
  }
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      onError(error)
      res.writeHead(500).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    paths,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
