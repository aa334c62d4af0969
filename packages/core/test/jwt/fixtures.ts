/** What the jwt tests share: the salt (the session cookie's name), a user's claims, the clock. */
export const salt = "tessera.session-token"
export const claims = { name: "Ada", email: "ada@example.com", picture: null, sub: "user-1" }
export const now = () => Math.floor(Date.now() / 1000)
