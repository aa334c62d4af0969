/**
 * Just enough of SvelteKit's request machinery to drive `handle` and the form
 * actions with real `Request`s: a cookie jar with SvelteKit's `event.cookies`
 * semantics, a `RequestEvent`, and a browser that carries cookies between requests.
 */
import {
  isHttpError,
  isRedirect,
  type Cookies,
  type Handle,
  type RequestEvent,
} from "@sveltejs/kit"
import { parse, serialize, type SerializeOptions } from "cookie"
import { ORIGIN } from "./config.js"

export interface JarCookie {
  name: string
  value: string
  options: SerializeOptions & { path: string }
}

/** `event.cookies`: request cookies plus those set during the request (SvelteKit's defaults applied). */
export class CookieJar implements Cookies {
  readonly set_: JarCookie[] = []
  private readonly initial: Record<string, string>
  private readonly defaults: SerializeOptions

  constructor(
    header: string | null,
    private readonly url: URL,
  ) {
    this.initial = parse(header ?? "") as Record<string, string>
    // SvelteKit's defaults for cookies.set.
    this.defaults = {
      httpOnly: true,
      sameSite: "lax",
      secure: !(url.hostname === "localhost" && url.protocol === "http:"),
    }
  }

  get(name: string): string | undefined {
    const latest = this.latest(name)
    if (latest) return latest.options.maxAge === 0 ? undefined : latest.value
    return this.initial[name]
  }

  getAll(): { name: string; value: string }[] {
    const all: Record<string, string> = { ...this.initial }
    for (const c of this.set_) all[c.name] = c.value
    return Object.entries(all).map(([name, value]) => ({ name, value }))
  }

  set(name: string, value: string, options: SerializeOptions & { path: string }): void {
    if (typeof options?.path !== "string")
      throw new Error("You must specify a `path` when setting cookies")
    this.set_.push({ name, value, options: { ...this.defaults, ...options } })
  }

  delete(name: string, options: SerializeOptions & { path: string }): void {
    this.set(name, "", { ...options, maxAge: 0 })
  }

  serialize(name: string, value: string, options: SerializeOptions & { path: string }): string {
    return serialize(name, value, { ...this.defaults, ...options })
  }

  /** The last cookie set under `name` in this request. */
  latest(name: string): JarCookie | undefined {
    return this.set_.findLast((c) => c.name === name)
  }

  /** `Set-Cookie` header values, as SvelteKit would add them to the response. */
  setCookieHeaders(): string[] {
    return this.set_.map((c) => serialize(c.name, c.value, c.options))
  }
}

export type TestEvent = RequestEvent & { cookies: CookieJar }

/** A `RequestEvent` for `request`, with a fresh `locals` and a cookie jar. */
export function createEvent(request: Request): TestEvent {
  const url = new URL(request.url)
  const cookies = new CookieJar(request.headers.get("cookie"), url)
  const event = {
    request,
    url,
    cookies,
    locals: {},
    params: {},
    route: { id: null },
    platform: undefined,
    isDataRequest: false,
    isSubRequest: false,
    isRemoteRequest: false,
    fetch: globalThis.fetch,
    getClientAddress: () => "127.0.0.1",
    setHeaders: () => {},
  }
  return event as unknown as TestEvent
}

/** A form POST, as a browser submits it. */
export function formRequest(
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Request {
  return new Request(url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: new URL(url).origin,
      ...headers,
    },
    body: new URLSearchParams(fields),
  })
}

/** Cookies a browser keeps between requests: from `Set-Cookie` headers or from an event's jar. */
export class Browser {
  readonly cookies = new Map<string, string>()

  header(): string {
    return [...this.cookies].map(([name, value]) => serialize(name, value)).join("; ")
  }

  /** Applies `Set-Cookie` headers (a value with `Max-Age=0` deletes). */
  receive(setCookies: Iterable<string>): void {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(";")
      const index = pair!.indexOf("=")
      const name = pair!.slice(0, index).trim()
      const value = decodeURIComponent(pair!.slice(index + 1).trim())
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))
      if (expired) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }

  receiveResponse(response: Response): void {
    this.receive(response.headers.getSetCookie())
  }

  receiveEvent(event: TestEvent): void {
    this.receive(event.cookies.setCookieHeaders())
  }

  request(url: string, init: RequestInit = {}): Request {
    const headers = new Headers(init.headers)
    if (this.cookies.size) headers.set("cookie", this.header())
    return new Request(url, { ...init, headers })
  }
}

/** Runs `handle` on `request`; `resolve` answers 200 "page" and records that it was called. */
export async function runHandle(
  handle: Handle,
  event: TestEvent,
): Promise<{ response: Response; resolved: boolean }> {
  let resolved = false
  const response = await handle({
    event,
    resolve: async () => {
      resolved = true
      return new Response("page")
    },
  })
  return { response, resolved }
}

/**
 * A browser signed in through `handle`'s own routes (the CSRF token, then the credentials
 * callback), as "ada"/"lovelace" of `testConfig` unless told otherwise.
 */
export async function signInThroughHandle(
  handle: Handle,
  origin: string,
  fields: Record<string, string> = { username: "ada", password: "lovelace" },
): Promise<Browser> {
  const browser = new Browser()
  const csrf = await runHandle(handle, createEvent(browser.request(`${origin}/auth/csrf`)))
  browser.receiveResponse(csrf.response)
  const { csrfToken } = (await csrf.response.json()) as { csrfToken: string }
  const { response } = await runHandle(
    handle,
    createEvent(
      browser.request(`${origin}/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: new URLSearchParams({ ...fields, csrfToken }),
      }),
    ),
  )
  if (response.status !== 302) throw new Error(`the sign-in answered ${response.status}`)
  browser.receiveResponse(response)
  return browser
}

/** How a form action ended: the redirect or HTTP error it threw (by status), or `{}` when it returned. */
export async function actionOutcome(
  action: (event: TestEvent) => unknown,
  event: TestEvent,
): Promise<{ redirect?: number; error?: number }> {
  try {
    await action(event)
  } catch (thrown) {
    if (isRedirect(thrown)) return { redirect: thrown.status }
    if (isHttpError(thrown)) return { error: thrown.status }
    throw thrown
  }
  return {}
}

/**
 * Signs in with `fields` through `signIn`, then posts the `signOut` form from that browser
 * with `headers` (where the post claims to come from): the sign-out's event, to check what
 * it left of the session.
 */
export async function signOutFrom(
  actions: { signIn: (event: TestEvent) => unknown; signOut: (event: TestEvent) => unknown },
  fields: Record<string, string>,
  headers: Record<string, string>,
): Promise<{ outcome: Awaited<ReturnType<typeof actionOutcome>>; event: TestEvent }> {
  const signedIn = createEvent(formRequest(`${ORIGIN}/signin`, fields))
  const signIn = await actionOutcome(actions.signIn, signedIn)
  if (signIn.redirect !== 303)
    throw new Error(`The sign-in before the sign-out ended ${JSON.stringify(signIn)}`)
  const browser = new Browser()
  browser.receiveEvent(signedIn)
  const request = browser.request(`${ORIGIN}/signout`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ redirectTo: "/" }),
  })
  const event = createEvent(request)
  return { outcome: await actionOutcome(actions.signOut, event), event }
}
