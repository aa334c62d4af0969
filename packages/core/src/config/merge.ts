/** Deep merge of plain objects; arrays, functions and class instances are replaced, not merged. */
export function merge<T>(target: T, ...sources: unknown[]): T {
  let result: any = target
  for (const source of sources) {
    if (!isPlainObject(source)) continue
    result = isPlainObject(result) ? { ...result } : {}
    for (const [key, value] of Object.entries(source)) {
      if (value === undefined) continue
      result[key] =
        isPlainObject(value) && isPlainObject(result[key]) ? merge(result[key], value) : value
    }
    // Symbol-keyed options (customFetch) are copied as they are.
    for (const symbol of Object.getOwnPropertySymbols(source))
      result[symbol] = (source as any)[symbol]
  }
  return result
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}
