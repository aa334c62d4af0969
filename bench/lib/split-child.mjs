// Runs a split build of the minimal app (bench/lib/bundle.mjs) in a fresh
// process, under bench/lib/load-recorder.mjs, through three steps, marking
// the load log between them, so the parent can tell which files each step
// loads: importing the app; a session check (GET /auth/session with the JWT
// cookie in BENCH_COOKIE); an OAuth sign-in (POST /auth/signin/github with a
// CSRF token), which must answer a redirect to GitHub.
//
//   node --import ./load-recorder.mjs split-child.mjs <entry file URL>
import { mark } from "./load-recorder.mjs"

const origin = "http://localhost:3000"
const app = (await import(process.argv[2])).default
mark("session check")
const session = await app.fetch(
  new Request(`${origin}/auth/session`, { headers: { cookie: process.env.BENCH_COOKIE } }),
)
const body = await session.json()
if (!body?.user?.email) throw new Error(`session check answered ${JSON.stringify(body)}`)
mark("OAuth sign-in")
const csrf = await app.fetch(new Request(`${origin}/auth/csrf`))
const { csrfToken } = await csrf.json()
const cookie = csrf.headers
  .getSetCookie()
  .map((line) => line.split(";")[0])
  .join("; ")
const signIn = await app.fetch(
  new Request(`${origin}/auth/signin/github`, {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${origin}/` }),
  }),
)
const location = signIn.headers.get("location") ?? ""
if (signIn.status !== 302 || !location.startsWith("https://github.com/login/oauth/authorize"))
  throw new Error(`the OAuth sign-in answered ${signIn.status} ${location}`)
mark("end")
