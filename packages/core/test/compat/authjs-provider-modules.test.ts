/**
 * Every provider module of `@auth/core` 0.41.3 (`@auth/core/providers/<file>`)
 * has its counterpart at `@tessera/core/providers/<file>`: a default-export
 * factory making a provider of Auth.js's id and type. An app that imports any
 * of them moves over by changing `@auth/` to `@tessera/`.
 *
 * The list is Auth.js's `providers/` folder (its `index` and
 * `provider-types` modules hold types; `oauth` holds types and is checked
 * for those below).
 */
import { describe, expect, test } from "vitest"

const OIDC = `apple asgardeo auth0 authentik azure-ad azure-ad-b2c bankid-no battlenet beyondidentity
  cognito descope duende-identity-server6 frontegg fusionauth google huggingface identity-server4
  keycloak kinde line linkedin logto microsoft-entra-id okta onelogin ory-hydra passage ping-id roblox
  salesforce simplelogin slack twitch united-effects vipps zitadel`
const OAUTH = `42-school atlassian azure-devops bitbucket box boxyhq-saml bungie click-up coinbase
  concept2 discord dribbble dropbox eventbrite eveonline facebook faceit figma foursquare freshbooks
  github gitlab hubspot instagram kakao mailchimp mailru mastodon mattermost medium naver netlify
  netsuite nextcloud notion osso osu patreon pinterest pipedrive reddit spotify strava threads tiktok
  todoist trakt twitter vk webex wechat wikimedia wordpress workos yandex zoho zoom`
const EMAIL = "email forwardemail loops mailgun nodemailer postmark resend sendgrid"

/** Module file -> [Auth.js's provider id, type]. */
const MODULES: Record<string, [string, string]> = {
  ...table(OIDC, "oidc"),
  ...table(OAUTH, "oauth"),
  ...table(EMAIL, "email"),
  credentials: ["credentials", "credentials"],
  passkey: ["passkey", "webauthn"],
  webauthn: ["webauthn", "webauthn"],
  // Auth.js's one module whose provider id is not its file name.
  "ory-hydra": ["hydra", "oidc"],
}

function table(names: string, type: string): Record<string, [string, string]> {
  return Object.fromEntries(names.split(/\s+/).map((name) => [name, [name, type]]))
}

test("the list is Auth.js's: 104 provider modules", () => {
  expect(Object.keys(MODULES)).toHaveLength(104)
})

describe.each(Object.entries(MODULES))("@tessera/core/providers/%s", (file, [id, type]) => {
  test(`makes a ${type} provider "${id}"`, async () => {
    const module = (await import(`@tessera/core/providers/${file}`)) as {
      default: (options: object) => { id?: string; type?: string; options?: { id?: string } }
    }
    expect(typeof module.default).toBe("function")
    const provider = module.default({})
    expect(provider.options?.id ?? provider.id).toBe(id)
    expect(provider.type).toBe(type)
  })
})
