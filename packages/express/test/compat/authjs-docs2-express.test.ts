/**
 * More of @auth/express as authjs.dev/reference/express writes it, imports changed to
 * `@tessera/express`: an app with its body parsers in front (`express.json()`,
 * `express.urlencoded({ extended: true })`) or behind, `app.set("trust proxy", true)` behind
 * an https proxy, ExpressAuth under `app.use("/api/auth/*", ...)` with `basePath: "/api/auth"`
 * in the shared config, a JSON client signing in and out (`X-Auth-Return-Redirect`), and
 * `getSession(req, authConfig)` in the app's own routes.
 */
import { createServer } from "node:http"
import { afterEach, describe, expect, test } from "vitest"
import express5 from "express"
import { ExpressAuth, getSession, type ExpressAuthConfig } from "@tessera/express"
import Credentials from "@tessera/express/providers/credentials"
import { HttpBrowser, listenOnLoopback } from "@tessera/testing"
import { express4 } from "../harness.js"

const SECRET = "a-test-secret-that-is-long-enough-0123456789"
const PROXY = { "x-forwarded-host": "app.example.test", "x-forwarded-proto": "https" }
const stops: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()))
})

// src/config/auth.config.ts, with the routes under /api/auth.
const authConfig: ExpressAuthConfig = {
  secret: SECRET,
  trustHost: true,
  basePath: "/api/auth",
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      authorize: async (c) =>
        c.email === "ada@example.com" && c.password === "pw"
          ? { id: "1", name: "Ada", email: "ada@example.com" }
          : null,
    }),
  ],
}

async function start(express: typeof express5, parsers: "before" | "after", mount: string) {
  const app = express()
  // If app is served through a proxy, trust the proxy to allow HTTPS protocol to be detected
  app.set("trust proxy", true)
  if (parsers === "before") app.use(express.json(), express.urlencoded({ extended: true }))
  app.use(mount, ExpressAuth(authConfig))
  if (parsers === "after") app.use(express.json(), express.urlencoded({ extended: true }))
  app.get("/api/me", async (req, res) => {
    const session = await getSession(req, authConfig)
    if (!session) res.status(401).json({ error: "unauthenticated" })
    else res.json(session)
  })
  const server = createServer(app)
  const { origin, stop } = await listenOnLoopback(server)
  stops.push(stop)
  return origin
}

describe("ExpressAuth at /api/auth/* with getSession(req, authConfig) (authjs.dev/reference/express)", () => {
  for (const [name, express, parsers, mount] of [
    ["Express 4, body parsers before, /api/auth/*", express4, "before", "/api/auth/*"],
    ["Express 4, body parsers after, /api/auth/*", express4, "after", "/api/auth/*"],
    ["Express 5, body parsers before, /api/auth", express5, "before", "/api/auth"],
  ] as const) {
    test(`${name}: a JSON client behind an https proxy signs in and out`, async () => {
      const origin = await start(express, parsers, mount)
      const browser = new HttpBrowser(origin, "/api/auth", PROXY)
      expect((await browser.request("/api/me")).status).toBe(401)

      // signIn("credentials", { redirect: false }) as Auth.js's clients send it.
      const csrfToken = await browser.csrfToken()
      const signIn = await browser.request("/api/auth/callback/credentials", {
        headers: { "x-auth-return-redirect": "1" },
        json: { email: "ada@example.com", password: "pw", csrfToken, callbackUrl: "/dashboard" },
      })
      expect(signIn.status).toBe(200)
      expect(await signIn.json()).toEqual({ url: "https://app.example.test/dashboard" })
      expect(browser.jar.has("__Secure-tessera.session-token")).toBe(true)

      const me = await browser.request("/api/me")
      expect(me.status).toBe(200)
      expect(await me.json()).toMatchObject({ user: { name: "Ada", email: "ada@example.com" } })

      // A wrong password from a form: the sign-in page under basePath, with the error.
      const wrong = await new HttpBrowser(origin, "/api/auth", PROXY).signInWithCredentials({
        email: "ada@example.com",
        password: "nope",
      })
      const location = new URL(wrong.headers.get("location")!)
      expect(location.origin + location.pathname).toBe("https://app.example.test/api/auth/signin")
      expect(location.searchParams.get("error")).toBe("CredentialsSignin")

      const signOut = await browser.request("/api/auth/signout", {
        headers: { "x-auth-return-redirect": "1" },
        form: { csrfToken: await browser.csrfToken() },
      })
      expect(signOut.status).toBe(200)
      expect((await browser.request("/api/me")).status).toBe(401)
    })
  }
})
