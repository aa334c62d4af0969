/**
 * Starting and stopping a test server on the loopback interface, on a port
 * the OS picks, so tests run side by side and reach nothing outside.
 * @module
 */
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * A server listening on 127.0.0.1: its origin, and how to stop it.
 *
 * @see {@link listenOnLoopback}
 */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string
  /** Stops listening and closes open connections (keep-alive ones too). */
  stop(): Promise<void>
}

/**
 * Makes `server` listen on 127.0.0.1, port 0.
 *
 * @param server A `node:http` server, with or without its request listener yet.
 * @example
 * ```ts
 * const server = createServer()
 * const { origin, stop } = await listenOnLoopback(server)
 * server.on("request", appFor(origin))
 * // ... fetch(origin) ...
 * await stop()
 * ```
 *
 * @see [RFC 8252 §7.3, Loopback Interface Redirection](https://www.rfc-editor.org/rfc/rfc8252.html#section-7.3)
 */
export async function listenOnLoopback(server: Server): Promise<LoopbackServer> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject)
      resolve()
    })
  })
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
