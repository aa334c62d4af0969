/**
 * Type tests (against the built declarations), found by comparing the exports of the `.d.ts`
 * files of `@auth/core` 0.41.3 (and of `@auth/sveltekit` 1.11.3 / `@auth/express` 0.12.3, whose
 * `/providers` re-export it) with Tessera's, subpath by subpath: type names an app imports from
 * `@auth/core/providers`, `/providers/oauth`, `/types`, `/providers/kakao` and `/providers/osu`
 * that did not resolve once the imports said `@tessera/`; and (a later sweep, every
 * `@auth/core/providers/<id>` module's export names against ours) the profile part types of
 * `/providers/42-school`, `/providers/notion` and `/providers/wikimedia`, and the
 * `/providers/provider-types` module.
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
import type {
  Achievement,
  Campus,
  CampusUser,
  CursusUser,
  ExpertisesUser,
  FortyTwoProfile,
  Image as FortyTwoImage,
  LanguagesUser,
  ProjectUser,
  TitlesUser,
  UserData,
} from "@tessera/core/providers/42-school"
import type {
  NotionProfile,
  Owner as NotionOwner,
  Person as NotionPerson,
  User as NotionUser,
} from "@tessera/core/providers/notion"
import type {
  WikimediaGrant,
  WikimediaGroup,
  WikimediaProfile,
  WikimediaRight,
} from "@tessera/core/providers/wikimedia"
import type {
  EmailProviderId as EmailProviderIdOfTypes,
  OAuthProviderId as OAuthProviderIdOfTypes,
} from "@tessera/core/providers/provider-types"
import type { EmailProviderId } from "@tessera/core/providers/email"
import type { OAuthProviderId as KitOAuthProviderIdOfTypes } from "@tessera/sveltekit/providers/provider-types"
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

// An import that does not resolve is `any` to the checker, which has every property: each
// imported name is checked not to be `any` first.
test("provider modules: 42 School's profile part types", () => {
  expectTypeOf<UserData>().not.toBeAny()
  expectTypeOf<CursusUser>().not.toBeAny()
  expectTypeOf<ProjectUser>().not.toBeAny()
  expectTypeOf<Achievement>().not.toBeAny()
  expectTypeOf<LanguagesUser>().not.toBeAny()
  expectTypeOf<TitlesUser>().not.toBeAny()
  expectTypeOf<ExpertisesUser>().not.toBeAny()
  expectTypeOf<Campus>().not.toBeAny()
  expectTypeOf<CampusUser>().not.toBeAny()
  expectTypeOf<FortyTwoImage>().not.toBeAny()
  expectTypeOf<UserData>().toHaveProperty("login").toEqualTypeOf<string>()
  expectTypeOf<CursusUser["user"]>().toEqualTypeOf<UserData>()
  expectTypeOf<CursusUser["cursus"]>().toHaveProperty("slug")
  expectTypeOf<ProjectUser["status"]>().toEqualTypeOf<"in_progress" | "finished">()
  expectTypeOf<Achievement>().toHaveProperty("tier")
  expectTypeOf<LanguagesUser>().toHaveProperty("language_id")
  expectTypeOf<TitlesUser>().toHaveProperty("selected")
  expectTypeOf<ExpertisesUser>().toHaveProperty("expertise_id")
  expectTypeOf<Campus>().toHaveProperty("time_zone")
  expectTypeOf<CampusUser>().toHaveProperty("is_primary")
  expectTypeOf<FortyTwoImage["versions"]>().toHaveProperty("micro")
  expectTypeOf<FortyTwoProfile["image"]>().toEqualTypeOf<FortyTwoImage>()
})

test("provider modules: Notion's profile part types", () => {
  expectTypeOf<NotionPerson>().not.toBeAny()
  expectTypeOf<NotionUser>().not.toBeAny()
  expectTypeOf<NotionOwner>().not.toBeAny()
  expectTypeOf<NotionPerson>().toHaveProperty("email")
  expectTypeOf<NotionUser>().toHaveProperty("avatar_url")
  expectTypeOf<NotionOwner>().toHaveProperty("user")
  expectTypeOf<NotionProfile["person"]>().toEqualTypeOf<NotionPerson | undefined>()
})

test("provider modules: Wikimedia's groups, grants and rights", () => {
  expectTypeOf<WikimediaGroup>().not.toBeAny()
  expectTypeOf<WikimediaGrant>().not.toBeAny()
  expectTypeOf<WikimediaRight>().not.toBeAny()
  expectTypeOf<"sysop">().toMatchTypeOf<WikimediaGroup>()
  expectTypeOf<"editpage">().toMatchTypeOf<WikimediaGrant>()
  expectTypeOf<"edit">().toMatchTypeOf<WikimediaRight>()
  expectTypeOf<WikimediaProfile["groups"]>().toEqualTypeOf<WikimediaGroup[]>()
  expectTypeOf<WikimediaProfile["grants"]>().toEqualTypeOf<WikimediaGrant[]>()
  expectTypeOf<WikimediaProfile["rights"]>().toEqualTypeOf<WikimediaRight[]>()
})

test("providers/provider-types holds the id unions, as Auth.js's module of that name", () => {
  expectTypeOf<OAuthProviderIdOfTypes>().not.toBeAny()
  expectTypeOf<EmailProviderIdOfTypes>().not.toBeAny()
  expectTypeOf<KitOAuthProviderIdOfTypes>().not.toBeAny()
  expectTypeOf<OAuthProviderIdOfTypes>().toEqualTypeOf<OAuthProviderId>()
  expectTypeOf<EmailProviderIdOfTypes>().toEqualTypeOf<EmailProviderId>()
  expectTypeOf<KitOAuthProviderIdOfTypes>().toEqualTypeOf<OAuthProviderId>()
})
