/**
 * For the provider tests' own cases beyond the conformance suite: an app
 * configuration around one provider, and one sign-in through a FakeIssuer.
 */
import { AppBrowser, setsSession, type FakeIssuer } from "@tessera/testing"
import { customFetch, setEnvDefaults, type AuthConfig } from "@tessera/core"

export const ORIGIN = "http://localhost:3000"
export const SECRET = "a-test-secret-that-is-long-enough-0123456789"

/** A config with `provider`, recording what is logged and what the `jwt` callback sees at sign-in. */
export function configFor(provider: unknown, extra: Partial<AuthConfig> = {}) {
  const errors: Error[] = []
  const seen: { account?: any; profile?: any; user?: any } = {}
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: { error: (e: Error) => void errors.push(e), warn: () => {}, debug: () => {} },
    providers: [provider as AuthConfig["providers"][number]],
    callbacks: {
      jwt({ token, account, profile, user }) {
        if (account) Object.assign(seen, { account, profile, user })
        return token
      },
    },
    ...extra,
  }
  return { config, errors, seen }
}

/** POST signin/<id>, approve at `issuer` as `sub`, follow the callback; the session if one was set. */
export async function signInThrough(
  setup: ReturnType<typeof configFor>,
  issuer: FakeIssuer,
  sub: string,
  providerId?: string,
) {
  const browser = new AppBrowser(setup.config, ORIGIN)
  const provider = setup.config.providers[0] as any
  const id = providerId ?? provider.options?.id ?? provider.id
  const start = await browser.startSignIn(id)
  const location = new URL(start.headers.get("location")!)
  const done = await browser.request(issuer.authorize(location, sub).href)
  const session = setsSession(done) ? await browser.session() : null
  return { browser, start, location, done, session, ...setup }
}

/**
 * `providers: [factory]` configured from `env` by `setEnvDefaults` (the factory
 * is called with the values it found), signed in at the suite's stand-in as `sub`.
 */
export async function signInFromEnv(
  suite: { standIn: { fetch: typeof fetch }; issuer: FakeIssuer },
  factory: (options: any) => unknown,
  env: Record<string, string>,
  sub: string,
) {
  const config = setEnvDefaults(
    { AUTH_SECRET: SECRET, ...env },
    {
      trustHost: true,
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
      providers: [
        (options: any) => factory({ ...options, [customFetch]: suite.standIn.fetch }) as any,
      ],
    },
  )
  const browser = new AppBrowser(config, ORIGIN)
  const provider = factory({}) as { id: string }
  const start = await browser.startSignIn(provider.id)
  const done = await browser.request(
    suite.issuer.authorize(start.headers.get("location")!, sub).href,
  )
  return { start, done, session: setsSession(done) ? await browser.session() : null }
}

/** A stand-in resource that answers with the identity's `profile` (the provider's user document). */
export function profileAt(url: string, method: "GET" | "POST" = "GET") {
  return { url, method, response: ({ identity }: { identity: any }) => identity.profile }
}

/** The two identities of an OAuth 2 spec: `profile` is what the provider's API returns for each. */
export interface ProfileIdentity {
  sub: string
  profile: any
  expect: any
  [key: string]: unknown
}

/**
 * Two identities of an OpenID Connect provider with the standard claims: Ada,
 * whose `email_verified` is true, and Bob, whose is false.
 */
export function standardOidcIdentities(domain: string, extra: Record<string, unknown> = {}) {
  const make = (sub: string, name: string, verified: boolean) => {
    const email = `${name.toLowerCase()}@${domain}`
    return {
      sub,
      claims: { name, email, email_verified: verified, ...extra },
      expect: {
        user: { id: sub, name, email, image: (extra.picture as string | undefined) ?? null },
        verifiedEmail: verified ? email : null,
      },
    }
  }
  return {
    verified: make("ada-subject", "Ada", true),
    unverified: make("bob-subject", "Bob", false),
  }
}
