import type { RequestContext } from "../context.js"
import { EventError } from "../errors.js"
import type { EventCallbacks } from "../types.js"

/**
 * Fires an event. Events are notifications: a handler that throws is logged as
 * `EventError` and never breaks the flow that fired it.
 */
export async function fireEvent<K extends keyof EventCallbacks>(
  ctx: Pick<RequestContext, "config">,
  name: K,
  message: Parameters<EventCallbacks[K]>[0],
): Promise<void> {
  const handler = ctx.config.events[name] as ((message: unknown) => unknown) | undefined
  if (!handler) return
  try {
    await handler(message)
  } catch (error) {
    ctx.config.logger.error(
      new EventError(`The ${name} event handler threw`, { cause: { err: error } }),
    )
  }
}
