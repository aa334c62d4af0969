/**
 * The core tests' harness, in one import: the secret and origin, configurations,
 * the recording logger, the cookie jar and the fake browser, the request helpers, and
 * JWTs MACed with a shared secret (`hmacJwt`).
 * Heavier peers have their own modules: `./backends.js` (memory, SQLite, PostgreSQL)
 * and `./stand-in.js` (a loopback host for any URL, a fake authorization server).
 */
export * from "./config.js"
export * from "./logger.js"
export * from "./cookies.js"
export * from "./requests.js"
export * from "./browser.js"
export * from "./jwt.js"
