/**
 * One run of `task` per key at a time: callers that come while it runs get
 * its promise. With `keepFor` (ms), the settled promise is kept that long
 * after, for callers that arrive holding what the run just replaced (a
 * browser's parallel requests carrying a refresh token that has been rotated).
 * @module
 */
export function singleFlight<T>(
  inFlight: Map<string, Promise<unknown>>,
  key: string,
  task: () => Promise<T>,
  keepFor = 0,
): Promise<T> {
  const running = inFlight.get(key)
  if (running) return running as Promise<T>
  const promise = task()
  inFlight.set(key, promise)
  const forget = () => {
    if (inFlight.get(key) !== promise) return
    if (keepFor <= 0) return void inFlight.delete(key)
    const timer = setTimeout(() => {
      if (inFlight.get(key) === promise) inFlight.delete(key)
    }, keepFor)
    // Never keeps a process alive.
    ;(timer as { unref?: () => void }).unref?.()
  }
  promise.then(forget, () => {
    // A failure is not kept: the next caller tries again.
    if (inFlight.get(key) === promise) inFlight.delete(key)
  })
  return promise
}
