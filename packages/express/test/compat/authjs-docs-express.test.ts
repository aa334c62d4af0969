/**
 * Auth.js v5's @auth/express documentation snippets (authjs.dev/reference/express),
 * imports changed to `@tessera/express`: `app.use("/auth/*", ExpressAuth(...))` (Express 4's
 * path syntax, as the docs write it) and `"/auth"`, with `trust proxy`, and the
 * `currentSession` / `authenticatedUser` middlewares built on `getSession(req, authConfig)`.
 */
import { createServer } from "node:http"
import { afterEach, describe, expect, test } from "vitest"
import express5, { type NextFunction, type Request, type Response } from "express"
import { ExpressAuth, getSession, type ExpressAuthConfig } from "@tessera/express"
import Credentials from "@tessera/express/providers/credentials"
import { HttpBrowser, listenOnLoopback } from "@tessera/testing"
import { express4 } from "../harness.js"

const SECRET = "a-test-secret-that-is-long-enough-0123456789"
const stops: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()))
})

// src/config/auth.config.ts
export const authConfig: ExpressAuthConfig = {
  secret: SECRET,
  trustHost: true,
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      authorize: async (credentials) =>
        credentials.email === "ada@example.com" && credentials.password === "pw"
          ? { id: "1", name: "Ada", email: "ada@example.com" }
          : null,
    }),
  ],
}

// src/middleware/auth.middleware.ts
export async function authenticatedUser(req: Request, res: Response, next: NextFunction) {
  const session = res.locals.session ?? (await getSession(req, authConfig))
  if (!session?.user) {
    res.redirect("/login")
  } else {
    next()
  }
}

export async function currentSession(req: Request, res: Response, next: NextFunction) {
  const session = await getSession(req, authConfig)
  res.locals.session = session
  return next()
}

async function start(express: typeof express5, mount: string) {
  const app = express()
  // If app is served through a proxy, trust the proxy to allow HTTPS protocol to be detected
  app.set("trust proxy", true)
  app.use(mount, ExpressAuth(authConfig))
  app.use(currentSession)
  app.get("/protected", authenticatedUser, (_req, res) => {
    res.json({ user: res.locals.session?.user })
  })
  const server = createServer(app)
  const { origin, stop } = await listenOnLoopback(server)
  stops.push(stop)
  return origin
}

describe("ExpressAuth + getSession (authjs.dev/reference/express)", () => {
  for (const [name, express, mount] of [
    ["Express 4, app.use('/auth/*')", express4, "/auth/*"],
    ["Express 5, app.use('/auth')", express5, "/auth"],
  ] as const) {
    test(name, async () => {
      const origin = await start(express, mount)
      const browser = new HttpBrowser(origin)
      const before = await browser.request("/protected")
      expect(before.status).toBe(302)
      expect(before.headers.get("location")).toBe("/login")

      const signIn = await browser.signInWithCredentials(
        { email: "ada@example.com", password: "pw" },
        { callbackUrl: "/protected" },
      )
      expect(signIn.status).toBe(302)
      expect(signIn.headers.get("location")).toBe(`${origin}/protected`)

      const after = await browser.request("/protected")
      expect(after.status).toBe(200)
      expect(await after.json()).toMatchObject({ user: { email: "ada@example.com" } })
      expect((await browser.session())?.user?.name).toBe("Ada")
    })
  }
})
