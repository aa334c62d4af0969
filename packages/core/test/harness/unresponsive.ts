/**
 * Peers that fail the way production services do during an outage, on
 * loopback: one that accepts connections and never says a word (a hung
 * server, a black-holing proxy) and a port nothing listens on (a service that
 * is down). For the outage tests of OAuth providers, mail servers, Redis and
 * databases, with the helpers they share to wait on what may never answer.
 * @module
 */
import { createServer, type Socket } from "node:net"
import { expect } from "vitest"
import { eitherSignal } from "../../src/lib/http-timeout.js"

export interface HungPeer {
  /** `http://127.0.0.1:<port>`. */
  url: string
  port: number
  /** Connections accepted so far. */
  readonly connections: number
  /** Closes the server and every connection it holds. */
  stop(): Promise<void>
}

/** A TCP server on 127.0.0.1 that accepts connections, reads what is sent and never answers. */
export async function startHungPeer(): Promise<HungPeer> {
  const sockets = new Set<Socket>()
  let connections = 0
  const server = createServer((socket) => {
    connections++
    sockets.add(socket)
    socket.on("error", () => undefined)
    socket.on("close", () => sockets.delete(socket))
    socket.resume()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return connections
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** A loopback port nothing listens on (taken from the OS, then released): connections are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/**
 * A `customFetch` whose clock runs fast: it honours the bound Tessera gives a
 * request (its `signal`) and ends it after `ms` instead of the default's
 * seconds, as the docs show for a shorter bound. A request Tessera gives no
 * bound is sent as it is, and waits as long as the runtime's fetch does.
 * `seen` records each request's URL and whether it came with a bound.
 */
export function boundHonouringFetch(ms: number) {
  const seen: { url: string; bounded: boolean }[] = []
  const fetcher: typeof fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    const given = init?.signal ?? undefined
    seen.push({ url, bounded: given !== undefined })
    if (!given) return fetch(input, init)
    return fetch(input, { ...init, signal: eitherSignal([given, AbortSignal.timeout(ms)]) })
  }
  return { fetch: fetcher, seen }
}

/** `promise`'s value, or `"no answer"` once `ms` have passed: a hang fails its test instead of the run. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | "no answer"> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<"no answer">((resolve) => {
    timer = setTimeout(() => resolve("no answer"), ms)
  })
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}

/** What `run` resolves to, and how many milliseconds it took. */
export async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now()
  const value = await run()
  return { value, ms: performance.now() - started }
}

/** The `error` value of the sign-in page the answer sends the browser to (as Auth.js does). */
export function signInPageError(response: Response, origin: string): string | null {
  expect(response.status).toBe(302)
  const location = new URL(response.headers.get("location")!, origin)
  expect(location.pathname).toBe("/auth/signin")
  return location.searchParams.get("error")
}
