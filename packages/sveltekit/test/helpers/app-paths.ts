/**
 * `$app/paths` for the tests, which run outside SvelteKit: no `paths.base`, unless a test sets
 * one with {@link setBase} (SvelteKit fixes it at build time; here it is a live binding).
 */
export let base = ""
export const assets = ""

export function setBase(next: string): void {
  base = next
}
