/**
 * The OAuth peers of the flows/oauth and providers tests: `StandIn` (a loopback
 * server that answers as any host through a provider's `customFetch`) and
 * `FakeIssuer` (an authorization server on a StandIn, whose ID Tokens tests can
 * make wrong on purpose). They live in `@tessera/testing`, where apps can use
 * them too.
 */
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
