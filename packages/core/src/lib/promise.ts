/**
 * Telling a promise from a value, so that hot paths await only what is
 * pending. An `await` on a plain value still costs a promise and a turn of the
 * microtask queue, and where a framework tracks every promise (SvelteKit's
 * AsyncLocalStorage) more than that.
 * @module
 */

/** True for a promise or any other thenable (what `await` would wait for). */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  )
}
