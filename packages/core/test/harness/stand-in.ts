/**
 * The OAuth peers of the flows/oauth and providers tests: `StandIn` (a loopback
 * server that answers as any host through a provider's `customFetch`) and
 * `FakeIssuer` (an authorization server on a StandIn, whose ID Tokens tests can
 * make wrong on purpose). They live in `@tessera/testing`, where apps can use
 * them too.
 */
import { FakeIssuer, type FakeIssuerOptions, type StandIn } from "@tessera/testing"

export {
  FakeIssuer,
  json,
  readForm,
  readJson,
  StandIn,
  type CodeRecord,
  type FakeIssuerOptions,
  type Recorded,
} from "@tessera/testing"

/**
 * The issuer most OAuth tests need: at `<standIn>/idp`, with its authorize, token and JWKS
 * endpoints there and client `client-1`; `options` change any of it (ID Token claims, the
 * token response).
 */
export function issuerOn(
  standIn: StandIn,
  options: Partial<Omit<FakeIssuerOptions, "standIn">> = {},
): Promise<FakeIssuer> {
  const base = `${standIn.origin}/idp`
  return FakeIssuer.create({
    standIn,
    issuer: base,
    authorizationEndpoint: `${base}/authorize`,
    tokenEndpoint: `${base}/token`,
    jwksUri: `${base}/jwks`,
    clientId: "client-1",
    clientSecret: "client-1-secret",
    ...options,
  })
}
