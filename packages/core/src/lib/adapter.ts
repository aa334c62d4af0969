/**
 * Calls into the adapter. Any failure becomes an `AdapterError` naming the
 * method, with the driver's error as its cause (logged, never shown to users).
 * With `debug: true` each call is logged by method name only: arguments and
 * results hold tokens and personal data.
 * @module
 */
import type { Adapter } from "../adapters.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { AdapterError, MissingAdapter, MissingAdapterMethods } from "../errors.js"

type Method = Exclude<keyof Adapter, symbol>
type Fn<M extends Method> = NonNullable<Adapter[M]>

export async function callAdapter<M extends Method>(
  config: Pick<ResolvedConfig, "adapter" | "logger">,
  method: M,
  ...args: Parameters<Fn<M>>
): Promise<Awaited<ReturnType<Fn<M>>>> {
  const { adapter } = config
  if (!adapter) throw new MissingAdapter(`This operation needs a database adapter (${method})`)
  const fn = adapter[method] as ((...a: unknown[]) => unknown) | undefined
  if (typeof fn !== "function")
    throw new MissingAdapterMethods(`The adapter has no ${method} method`)
  config.logger.debug(`adapter: ${method}`, { method })
  try {
    return (await fn.apply(adapter, args)) as Awaited<ReturnType<Fn<M>>>
  } catch (error) {
    if (error instanceof AdapterError) throw error
    throw new AdapterError(`Adapter method ${method} failed`, { cause: { err: error } })
  }
}
