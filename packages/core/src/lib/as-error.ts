/**
 * A thrown value as an `Error`, for the logger (which takes errors): a
 * store or callback may reject with a string or anything else.
 * @module
 */

/** `value` itself when it is an `Error`, else an `Error` whose message is `String(value)`. */
export const asError = (value: unknown): Error =>
  value instanceof Error ? value : new Error(String(value))
