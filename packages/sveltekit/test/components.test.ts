import { fileURLToPath } from "node:url"
import { render } from "svelte/server"
import { isRedirect } from "@sveltejs/kit"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { CredentialsSignin, SvelteKitAuth } from "../src/index.js"
import { setKitRuntime } from "../src/env.js"
import { setPageUrl } from "./helpers/app-stores.js"
import { ORIGIN, testConfig, useKitRuntime } from "./helpers/config.js"
import { createEvent, formRequest } from "./helpers/kit.js"
import { disposeCompiled, loadComponent } from "./helpers/svelte.js"

const file = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** The markup without Svelte's hydration comments and with whitespace collapsed. */
function html(body: string): string {
  return body
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/\s+/g, " ")
    .replace(/> </g, "><")
    .trim()
}

/** `<input type="hidden">` fields of the markup, by name. */
function hiddenFields(markup: string): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [tag] of markup.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(tag)?.[1]
    const value = /value="([^"]*)"/.exec(tag)?.[1] ?? ""
    if (name !== undefined) fields[name] = value.replaceAll("&amp;", "&")
  }
  return fields
}

function forms(markup: string): string[] {
  return markup.match(/<form[\s\S]*?<\/form>/g) ?? []
}

let SignIn: Awaited<ReturnType<typeof loadComponent>>
let SignOut: Awaited<ReturnType<typeof loadComponent>>

beforeAll(async () => {
  SignIn = await loadComponent(file("../src/components/SignIn.svelte"))
  SignOut = await loadComponent(file("../src/components/SignOut.svelte"))
})
afterAll(disposeCompiled)

describe("SignIn", () => {
  it("renders a form posting to the /signin action with the provider id and a default button", () => {
    const markup = html(render(SignIn, { props: { provider: "github" } }).body)
    expect(markup).toMatch(/^<form method="POST" action="\/signin" class="signInButton">/)
    expect(hiddenFields(markup)).toEqual({ providerId: "github" })
    expect(markup).toContain('<button type="submit">Sign in with github</button>')
    expect(markup).not.toContain('type="email"')
  })

  it('provider "two-factor": a labelled one-time-code field and "Verify"', () => {
    const markup = html(render(SignIn, { props: { provider: "two-factor" } }).body)
    expect(hiddenFields(markup)).toEqual({ providerId: "two-factor" })
    expect(markup).toContain('<label for="tessera-two-factor-code">Code</label>')
    expect(markup).toMatch(
      /<input id="tessera-two-factor-code" name="code"[^>]*autocomplete="one-time-code"/,
    )
    // It takes recovery codes too (letters): no digits-only keypad on a phone.
    expect(/<input id="tessera-two-factor-code"[^>]*>/.exec(markup)![0]).not.toContain("inputmode")
    expect(markup).toContain('<button type="submit">Verify</button>')
  })

  it("posts to a custom sign-in page and adds class names", () => {
    for (const signInPage of ["login", "/login"]) {
      const markup = html(
        render(SignIn, { props: { provider: "github", signInPage, className: "wide" } }).body,
      )
      expect(markup).toContain('action="/login" class="signInButton wide"')
    }
  })

  it("sends redirectTo, other option fields and authorizationParams-<name> as hidden fields", () => {
    const markup = html(
      render(SignIn, {
        props: {
          provider: "github",
          options: { redirectTo: "/dashboard?tab=1&x=2", redirect: false, login_hint: "ada" },
          authorizationParams: { prompt: "consent", scope: "openid email" },
        },
      }).body,
    )
    expect(hiddenFields(markup)).toEqual({
      providerId: "github",
      redirectTo: "/dashboard?tab=1&x=2",
      login_hint: "ada",
      "authorizationParams-prompt": "consent",
      "authorizationParams-scope": "openid email",
    })
  })

  it("accepts Auth.js' callbackUrl and FormData options", () => {
    const fromCallbackUrl = html(
      render(SignIn, { props: { provider: "github", options: { callbackUrl: "/a" } } }).body,
    )
    expect(hiddenFields(fromCallbackUrl).redirectTo).toBe("/a")
    const form = new FormData()
    form.set("redirectTo", "/b")
    const fromFormData = html(render(SignIn, { props: { provider: "github", options: form } }).body)
    expect(hiddenFields(fromFormData).redirectTo).toBe("/b")
  })

  it("without a provider posts an empty providerId (the action then opens the sign-in page)", () => {
    const markup = html(render(SignIn, {}).body)
    expect(hiddenFields(markup)).toEqual({ providerId: "" })
    expect(markup).toContain('<button type="submit">Sign in</button>')
  })

  it("gives e-mail providers a default e-mail input", () => {
    for (const provider of ["email", "nodemailer", "resend"]) {
      const markup = html(render(SignIn, { props: { provider } }).body)
      expect(markup).toMatch(
        /<input id="tessera-email-[a-z]+" type="email" name="email"[^>]*required/,
      )
      expect(markup).toContain('<button type="submit">Sign in</button>')
    }
  })

  it("fills credentials and submitButton slots with slot content", async () => {
    const Legacy = await loadComponent(file("./fixtures/SlotsLegacy.svelte"))
    const [signIn, signOut] = forms(html(render(Legacy, {}).body))
    expect(signIn).toContain('<input name="username"/>')
    expect(signIn).toContain('<input name="password" type="password"/>')
    expect(signIn).toContain(
      '<button type="submit"><span slot="submitButton">Log in (slot)</span></button>',
    )
    expect(hiddenFields(signIn!)).toEqual({ providerId: "credentials", redirectTo: "/dashboard" })
    expect(signOut).toContain(
      '<button type="submit"><span slot="submitButton">Log out (slot)</span></button>',
    )
  })

  it("fills credentials, email and submitButton slots with Svelte 5 snippets", async () => {
    const Snippets = await loadComponent(file("./fixtures/SlotsSnippets.svelte"))
    const [credentials, email, signOut] = forms(
      html(render(Snippets, { props: { redirectTo: "/x" } }).body),
    )
    expect(credentials).toContain('<input name="otp"/>')
    expect(credentials).toContain(
      '<button type="submit"><strong>Log in (snippet)</strong></button>',
    )
    expect(hiddenFields(credentials!)).toEqual({ providerId: "credentials", redirectTo: "/x" })
    expect(email).toContain('class="custom-email"')
    expect(email).not.toContain("tessera-email")
    expect(signOut).toContain('<button type="submit"><em>Log out (snippet)</em></button>')
  })
})

describe("SignIn on a page with a query", () => {
  afterEach(() => {
    setPageUrl(`${ORIGIN}/`)
    setKitRuntime()
  })

  /** The form's `action` as rendered on the page at `url`. */
  function actionOn(url: string, props: Record<string, unknown> = { provider: "credentials" }) {
    setPageUrl(url)
    const markup = html(render(SignIn, { props }).body)
    return /<form method="POST" action="([^"]*)"/.exec(markup)![1]!.replaceAll("&amp;", "&")
  }

  /** Submits the form rendered on `page` as a browser does: to its action, with the page as Referer. */
  async function submit(signIn: (event: never) => unknown, page: string, fields: object) {
    const action = new URL(actionOn(page), page).href
    const event = createEvent(
      formRequest(action, { providerId: "credentials", ...fields }, { referer: page }),
    )
    try {
      await signIn(event as never)
    } catch (thrown) {
      return { action, thrown }
    }
    return { action, thrown: undefined }
  }

  it("a failed try keeps redirectTo (and the page's other parameters): the next try lands there", async () => {
    useKitRuntime({ NODE_ENV: "production" })
    const { signIn } = SvelteKitAuth(testConfig())
    const page = `${ORIGIN}/signin?redirectTo=%2Fdashboard%3Ftab%3D1&plan=pro`
    const failed = await submit(signIn, page, { username: "ada", password: "wrong" })
    expect(failed.thrown).toBeInstanceOf(CredentialsSignin)
    // The app answers with fail(...): the browser now shows the action's URL, re-rendered.
    const shown = failed.action
    const second = await submit(signIn, shown, { username: "ada", password: "lovelace" })
    expect(isRedirect(second.thrown)).toBe(true)
    expect(second.thrown).toMatchObject({ status: 303, location: `${ORIGIN}/dashboard?tab=1` })
    expect(new URL(shown).searchParams.get("plan")).toBe("pro")
  })

  it("keeps callbackUrl; leaves out the error of an earlier try", () => {
    const action = actionOn(
      `${ORIGIN}/signin?callbackUrl=%2Fa&error=CredentialsSignin&code=credentials`,
    )
    expect(action).toBe("/signin?callbackUrl=%2Fa")
  })

  it("an action with a query of its own, another origin's, or a page without one: as given", () => {
    const page = `${ORIGIN}/signin?redirectTo=%2Fx`
    expect(actionOn(page, { signInPage: "/login?next=1" })).toBe("/login?next=1")
    expect(actionOn(page, { signInPage: "https://id.example/signin" })).toBe(
      "https://id.example/signin",
    )
    expect(actionOn(`${ORIGIN}/signin`)).toBe("/signin")
    expect(actionOn(`${ORIGIN}/signin?error=OAuthSignin`)).toBe("/signin")
  })
})

describe("SignOut", () => {
  it("renders a form posting to the /signout action with a default button", () => {
    const markup = html(render(SignOut, {}).body)
    expect(markup).toBe(
      '<form method="POST" action="/signout" class="signOutButton"><button type="submit">Sign out</button></form>',
    )
  })

  it("takes a custom page, class names and redirectTo", () => {
    const markup = html(
      render(SignOut, {
        props: { signOutPage: "logout", className: "link", options: { redirectTo: "/bye" } },
      }).body,
    )
    expect(markup).toContain('action="/logout" class="signOutButton link"')
    expect(hiddenFields(markup)).toEqual({ redirectTo: "/bye" })
  })
})
