/**
 * `$app/stores` for the component tests, which render outside SvelteKit: `page` holds only
 * the URL the components read, `/` unless a test sets another with {@link setPageUrl}
 * (in an app, SvelteKit sets it to the URL the page was rendered for).
 */
import { writable } from "svelte/store"

export const page = writable({ url: new URL("http://localhost:5173/") })

export function setPageUrl(url: string): void {
  page.set({ url: new URL(url) })
}
