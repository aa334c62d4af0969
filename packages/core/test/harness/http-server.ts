/**
 * `Auth()` served over real HTTP on the loopback interface: for peers that
 * call the app themselves (an OpenID provider posting back-channel logout
 * tokens). The configuration is read per request, so it can be made after the
 * origin is known.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { Auth, type AuthConfig } from "@tessera/core"
import { listenOnLoopback } from "@tessera/testing"

export interface AuthServer {
  origin: string
  /** Requests the server answered, by path. */
  paths: string[]
  stop(): Promise<void>
}

export async function serveAuth(config: () => AuthConfig): Promise<AuthServer> {
  const paths: string[] = []
  const server = createServer()
  const { origin, stop } = await listenOnLoopback(server)
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const headers = new Headers()
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === "string") headers.set(name, value)
      }
      const url = new URL(req.url ?? "/", origin)
      paths.push(url.pathname)
      const hasBody = req.method !== "GET" && req.method !== "HEAD"
      const response = await Auth(
        new Request(url, {
          method: req.method,
          headers,
          body: hasBody ? Buffer.concat(chunks) : undefined,
        }),
        config() as Omit<AuthConfig, "raw">,
      )
      const out: Record<string, string | string[]> = {}
      response.headers.forEach((value, name) => {
        if (name !== "set-cookie") out[name] = value
      })
      const cookies = response.headers.getSetCookie()
      if (cookies.length) out["set-cookie"] = cookies
      res.writeHead(response.status, out)
      res.end(Buffer.from(await response.arrayBuffer()))
    })().catch(() => res.writeHead(500).end())
  })
  return { origin, paths, stop }
}
