/**
 * Hono on Node.js with Tessera: a credentials sign-in (alice / wonderland-42)
 * and a protected page. See README.md for how to run it.
 */
import { randomBytes } from "node:crypto"
import { serve } from "@hono/node-server"
import { Hono } from "hono"
import { authHandler, getAuthUser, initAuthConfig, verifyAuth } from "@tessera/hono"
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

const app = new Hono()
app.use(
  "*",
  initAuthConfig(() => authConfig),
)
app.use("/auth/*", authHandler())

app.get("/", async (c) => {
  const authUser = await getAuthUser(c)
  return c.html(
    page(
      authUser
        ? `<p>Signed in as ${escape(authUser.session.user?.name ?? "")}.</p>
           <p><a href="/protected">Protected page</a> · <a href="/auth/signout">Sign out</a></p>`
        : `<p>Not signed in.</p><p><a href="/auth/signin">Sign in</a> (alice / wonderland-42)</p>`,
    ),
  )
})

// Only for signed-in users: everyone else is sent to the sign-in page, and back here afterwards.
app.get("/protected", async (c) => {
  const authUser = await getAuthUser(c)
  if (!authUser)
    return c.redirect(`/auth/signin?${new URLSearchParams({ callbackUrl: "/protected" })}`)
  const name = escape(authUser.session.user?.name ?? "")
  return c.html(page(`<p>Hello ${name}, this page is protected.</p>`))
})

// The same for scripts: verifyAuth() answers 401 without a session.
app.use("/api/*", verifyAuth())
app.get("/api/me", (c) => c.json(c.get("authUser").session))

serve({ fetch: app.fetch, hostname: host, port }, ({ port: actual }) => {
  const origin = `http://${host}:${actual}`
  // The app's public origin: every URL Tessera builds (redirects, callbacks) uses it, whatever
  // Host a request claims. In production, set AUTH_URL to your https origin instead.
  process.env.AUTH_URL ||= origin
  console.log(`Hono example listening on ${origin}`)
})

function page(body) {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Tessera + Hono</title>
<body style="font-family: system-ui; max-width: 40rem; margin: 3rem auto">${body}</body></html>`
}

function escape(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
