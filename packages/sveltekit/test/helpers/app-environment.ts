/** `$app/environment` for the component tests, which render outside SvelteKit: a server render at run time. */
export const browser = false
export const building = false
export const dev = false
export const version = "test"
