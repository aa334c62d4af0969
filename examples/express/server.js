/**
 * Express with Tessera: a credentials sign-in (alice / wonderland-42) and a
 * protected page. See README.md for how to run it.
 */
import { randomBytes } from "node:crypto"
import express from "express"
import { ExpressAuth, getSession } from "@tessera/express"
import Credentials from "@tessera/core/providers/credentials"

const host = process.env.HOST ?? "localhost"
const port = Number(process.env.PORT ?? 3000)

// A real app looks users up in its database and checks a password hash (scrypt, argon2).
const users = new Map([
  ["alice", { id: "1", name: "Alice", email: "alice@example.test", password: "wonderland-42" }],
])

// One configuration object for the app: Tessera validates it once, on first use.
const authConfig = {
  // Set AUTH_SECRET (32+ random characters, `npx tessera secret`) to keep sessions across restarts.
  secret: process.env.AUTH_SECRET || randomBytes(32).toString("base64url"),
  providers: [
    Credentials({
      credentials: {
        username: { label: "User name", autocomplete: "username" },
        password: { label: "Password", type: "password", autocomplete: "current-password" },
      },
      authorize({ username, password }) {
        const user = users.get(String(username))
        if (!user || user.password !== password) return null
        return { id: user.id, name: user.name, email: user.email }
      },
    }),
  ],
}

const app = express()
// Behind a reverse proxy, tell Express to believe it (and only it), e.g.:
// app.set("trust proxy", 1)

app.use("/auth", ExpressAuth(authConfig))

app.get("/", async (req, res) => {
  const session = await getSession(req, authConfig)
  res.type("html").send(
    page(
      session
        ? `<p>Signed in as ${escape(session.user?.name ?? "")}.</p>
           <p><a href="/protected">Protected page</a> · <a href="/auth/signout">Sign out</a></p>`
        : `<p>Not signed in.</p><p><a href="/auth/signin">Sign in</a> (alice / wonderland-42)</p>`,
    ),
  )
})

// Only for signed-in users: everyone else is sent to the sign-in page, and back here afterwards.
app.get("/protected", async (req, res) => {
  const session = await getSession(req, authConfig)
  if (!session) {
    res.redirect(`/auth/signin?${new URLSearchParams({ callbackUrl: "/protected" })}`)
    return
  }
  res
    .type("html")
    .send(page(`<p>Hello ${escape(session.user?.name ?? "")}, this page is protected.</p>`))
})

// The same for scripts: JSON, 401 without a session.
app.get("/api/me", async (req, res) => {
  const session = await getSession(req, authConfig)
  if (!session) res.status(401).json({ error: "Unauthorized" })
  else res.json(session)
})

const server = app.listen(port, host, () => {
  const { port: actual } = server.address()
  const origin = `http://${host}:${actual}`
  // The app's public origin: every URL Tessera builds (redirects, callbacks) uses it, whatever
  // Host a request claims. In production, set AUTH_URL to your https origin instead.
  process.env.AUTH_URL ||= origin
  console.log(`Express example listening on ${origin}`)
})

function page(body) {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Tessera + Express</title>
<body style="font-family: system-ui; max-width: 40rem; margin: 3rem auto">${body}</body></html>`
}

function escape(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
