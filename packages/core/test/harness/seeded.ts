/**
 * Seeded pseudo-random choices for the malformed-request tests: a case built
 * from a fixed sequence replays, so a failure names one that can be re-run.
 * Not for anything secret.
 */

/** mulberry32: a small, fast PRNG; numbers in [0, 1) from `seed`. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** One of `items`, as `next` picks. */
export function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!
}
