/**
 * The client's address, as SvelteKit knows it: `event.getClientAddress()`,
 * which the adapter answers (adapter-node: the socket's peer, or with
 * `ADDRESS_HEADER` and `XFF_DEPTH` the entry of the proxy header they pick).
 * Handed to core with the request (never as a header, which the client could
 * write), and asked for only when a per-IP limit applies with
 * `rateLimit: { clientAddress: true }`: some adapters throw when they cannot
 * tell, which then counts as no address.
 * @module
 */
import type { RequestEvent } from "@sveltejs/kit"
import { withClientAddress } from "@tessera/core"

/** `request`, carrying the address of `event`'s client for core. */
export function withEventAddress(request: Request, event: RequestEvent): Request {
  return withClientAddress(request, () => event.getClientAddress())
}
