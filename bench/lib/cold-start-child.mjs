// One cold start, in a fresh `node` process started by bench/cold-start.mjs.
//
//   node cold-start-child.mjs <module URL> [session | session-request-first]
//
// Imports the module (a generated minimal app, or any package for the
// per-dependency figures), then with `session` answers one
// `GET /auth/session` with the cookie in BENCH_COOKIE through the app's
// `fetch`. `session-request-first` makes a throwaway `Request` before the clock
// starts, as a server framework has before a library's first check: Node then
// loads undici (about 50 ms here) outside the timed part, for both libraries. Prints one JSON line: milliseconds since the process started
// (`boot`), for the import, and for import plus the first session check.
const boot = performance.now()
const [url, mode] = process.argv.slice(2)
if (mode === "session-request-first") new Request("http://localhost:3000/")
const start = performance.now()
const app = await import(url)
const imported = performance.now()
let response
if (mode?.startsWith("session")) {
  const request = new Request("http://localhost:3000/auth/session", {
    headers: { cookie: process.env.BENCH_COOKIE },
  })
  const answer = await app.default.fetch(request)
  response = {
    status: answer.status,
    body: await answer.json(),
    setCookie: answer.headers.getSetCookie().map((line) => line.split("=")[0]),
  }
}
const done = performance.now()
process.stdout.write(
  `${JSON.stringify({
    bootMs: boot,
    importMs: imported - start,
    totalMs: done - start,
    response,
  })}\n`,
)
