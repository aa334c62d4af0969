/**
 * Type tests (against the built declarations), found by comparing the exports of the `.d.ts`
 * files of `@auth/core` 0.41.3 (and of `@auth/sveltekit` 1.11.3 / `@auth/express` 0.12.3, whose
 * `/providers` re-export it) with Tessera's, subpath by subpath: type names an app imports from
 * `@auth/core/providers`, `/providers/oauth`, `/types`, `/providers/kakao` and `/providers/osu`
 * that did not resolve once the imports said `@tessera/`.
 */
import { expectTypeOf, test } from "vitest"
import type {
  AppProviders,
  BuiltInProviders,
  OAuthProviderId,
  OIDCConfigInternal,
} from "@tessera/core/providers"
import type { OAuthProviderId as OAuthProviderIdOfOauth } from "@tessera/core/providers/oauth"
import type { OIDCConfigInternal as OIDCConfigInternalOfOauth } from "@tessera/core/providers/oauth"
import type { SemverString, WebAuthnOptionsResponseBody } from "@tessera/core/types"
import type { OAuthProviderId as KitOAuthProviderId } from "@tessera/sveltekit/providers"
import type { AppProviders as ExpressAppProviders } from "@tessera/express/providers"
import type {
  AgeRange as KakaoAgeRange,
  Birthday as KakaoBirthday,
  DateTime as KakaoDateTime,
  Gender as KakaoGender,
} from "@tessera/core/providers/kakao"
import type { OsuProfile, OsuUserCompact } from "@tessera/core/providers/osu"
import GitHub from "@tessera/core/providers/github"
import Credentials from "@tessera/core/providers/credentials"

test("OAuthProviderId names the built-in OAuth/OIDC providers", () => {
  expectTypeOf<"github">().toMatchTypeOf<OAuthProviderId>()
  expectTypeOf<"microsoft-entra-id">().toMatchTypeOf<OAuthProviderId>()
  expectTypeOf<"42-school">().toMatchTypeOf<OAuthProviderId>()
  expectTypeOf<"credentials">().not.toMatchTypeOf<OAuthProviderId>()
  expectTypeOf<OAuthProviderIdOfOauth>().toEqualTypeOf<OAuthProviderId>()
  expectTypeOf<KitOAuthProviderId>().toEqualTypeOf<OAuthProviderId>()
})

test("BuiltInProviders maps ids to factories; AppProviders holds what they make", () => {
  expectTypeOf<BuiltInProviders["github"]>().toBeFunction()
  expectTypeOf<BuiltInProviders["credentials"]>().toBeFunction()
  const providers: AppProviders = [GitHub({ clientId: "a", clientSecret: "b" }), Credentials({})]
  expectTypeOf(providers).toMatchTypeOf<ExpressAppProviders>()
})

test("OIDCConfigInternal is a resolved OIDC provider", () => {
  expectTypeOf<OIDCConfigInternal<any>>().toHaveProperty("checks")
  expectTypeOf<OIDCConfigInternal<any>>().toHaveProperty("idToken")
  expectTypeOf<OIDCConfigInternalOfOauth<any>>().toEqualTypeOf<OIDCConfigInternal<any>>()
})

test("types: SemverString and the webauthn-options answer", () => {
  expectTypeOf<"v1.2.3">().toMatchTypeOf<SemverString>()
  expectTypeOf<"1.2.3">().not.toMatchTypeOf<SemverString>()
  expectTypeOf<WebAuthnOptionsResponseBody["action"]>().toEqualTypeOf<"authenticate" | "register">()
  expectTypeOf<
    Extract<WebAuthnOptionsResponseBody, { action: "register" }>["options"]
  >().toHaveProperty("challenge")
})

test("provider modules: Kakao's and osu!'s profile part types", () => {
  expectTypeOf<KakaoDateTime>().toEqualTypeOf<string>()
  expectTypeOf<KakaoGender>().toEqualTypeOf<"female" | "male">()
  expectTypeOf<KakaoBirthday>().toEqualTypeOf<"SOLAR" | "LUNAR">()
  expectTypeOf<"20-29">().toMatchTypeOf<KakaoAgeRange>()
  expectTypeOf<OsuProfile>().toMatchTypeOf<OsuUserCompact>()
  expectTypeOf<OsuUserCompact>().toHaveProperty("username")
})
