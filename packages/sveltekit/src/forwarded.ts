/**
 * SvelteKit has already decided the request's URL (`event.url`): from its
 * `ORIGIN`, or from the headers its adapter was told to trust
 * (`PROTOCOL_HEADER`, `HOST_HEADER`). Proxy headers a client sent along must
 * not get a second say in core, so they are taken off every request the
 * integration hands to core.
 * @module
 */

const FORWARDED = ["x-forwarded-host", "x-forwarded-proto", "forwarded"] as const

/** True when `headers` carry any proxy header. */
function hasForwarded(headers: Headers): boolean {
  return FORWARDED.some((name) => headers.has(name))
}

/** `headers` without proxy headers (the same object when there are none: the common case costs nothing). */
export function withoutForwardedHeaders(headers: Headers): Headers {
  if (!hasForwarded(headers)) return headers
  const copy = new Headers(headers)
  for (const name of FORWARDED) copy.delete(name)
  return copy
}

/** `request` at SvelteKit's URL, without proxy headers. */
export function withoutForwarded(request: Request, url: URL): Request {
  if (!hasForwarded(request.headers) && request.url === url.href) return request
  const init: RequestInit & { duplex?: "half" } = {
    method: request.method,
    headers: withoutForwardedHeaders(request.headers),
    signal: request.signal,
  }
  if (request.body) {
    // A body a hook of the app's already read cannot be handed on (the constructor throws, a
    // 500 at the client's will); a stream that fails when read gets core's own 400, as the
    // request itself would have.
    init.body = request.bodyUsed || request.body.locked ? spentBody() : request.body
    init.duplex = "half"
  }
  return new Request(url, init)
}

/** A body whose read fails, standing in for one that was read already. */
function spentBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.error(new TypeError("The request body was already read"))
    },
  })
}
