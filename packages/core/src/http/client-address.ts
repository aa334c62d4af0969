/**
 * The client's address as a framework integration knows it (SvelteKit's
 * `event.getClientAddress()`, Express's `req.ip`), handed to core alongside
 * the `Request` it built: kept by the `Request` object itself, out of reach of
 * anything the client sends (no header, no field), and read only when the app
 * turned `rateLimit.clientAddress` on.
 * @module
 */

/**
 * A client's address for {@link withClientAddress}: the address, or a function giving it
 * (called only when a per-IP limit applies).
 *
 * @see [docs: the address your framework knows](https://github.com/tessera-auth/tessera/blob/main/docs/passwords-and-rate-limits.md#the-address-your-framework-knows-clientaddress)
 */
export type ClientAddress = string | (() => string | null | undefined)

const addresses = new WeakMap<Request, ClientAddress>()

/**
 * Hands `Auth()` the client's address for `request`, as the server or framework
 * knows it: the peer of the connection, or what the framework's own proxy
 * settings made of it. Used for the per-IP rate limits when the configuration
 * sets `rateLimit: { clientAddress: true }` (Tessera addition). The integrations
 * (`@tessera/sveltekit`, `@tessera/express`) call it for you; call it yourself
 * when you call `Auth()` on a server that tells you the peer's address.
 *
 * @param request The request you are about to give `Auth()` (the same object).
 * @param address The client's address (`"203.0.113.7"`, `"2001:db8::1"`, with or without a
 *   port), or a function returning it, called only when a per-IP limit applies (a throw
 *   counts as no address).
 * @returns `request`, for `Auth(withClientAddress(request, address), config)`.
 * @example
 * ```ts
 * // Bun: the socket's peer address
 * Bun.serve({
 *   fetch: (request, server) =>
 *     Auth(withClientAddress(request, () => server.requestIP(request)?.address), config),
 * })
 * ```
 * @see [SvelteKit: getClientAddress](https://svelte.dev/docs/kit/@sveltejs-kit#RequestEvent)
 * @see [Express: req.ip](https://expressjs.com/en/api.html#req.ip)
 */
export function withClientAddress(request: Request, address: ClientAddress): Request {
  addresses.set(request, address)
  return request
}

/** The address handed over with `request`, or `undefined` (none, or its function threw). */
export function clientAddressOf(request: Request | undefined): string | undefined {
  const address = request && addresses.get(request)
  let value: unknown
  try {
    value = typeof address === "function" ? address() : address
  } catch {
    // SvelteKit's adapters throw when they cannot tell (ADDRESS_HEADER missing from the request).
    return undefined
  }
  return typeof value === "string" && value !== "" ? value : undefined
}
