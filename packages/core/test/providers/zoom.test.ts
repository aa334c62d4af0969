/** Zoom: no scope parameter, HTTP Basic, `/v2/users/me`. */
import { runProviderTests } from "@tessera/testing/suites"
import Zoom from "@tessera/core/providers/zoom"
import { profileAt, type ProfileIdentity } from "./helpers.js"

const user = (id: string, first: string, last: string, email: string, verified: number) => ({
  id,
  first_name: first,
  last_name: last,
  email,
  type: 1,
  role_name: "Owner",
  pmi: 3542471135,
  use_pmi: false,
  personal_meeting_url: "https://zoom.example/j/3542471135",
  timezone: "America/Los_Angeles",
  verified,
  dept: "",
  created_at: "2024-01-01T00:00:00Z",
  last_login_time: "2024-01-02T00:00:00Z",
  last_client_version: "5.17.0",
  pic_url: `https://zoom.example/p/${id}`,
  jid: `${id}@xmpp.zoom.example`,
  group_ids: [],
  im_group_ids: [],
  account_id: "q6gBJVO5TzexKYTb_I2rpg",
  language: "en-US",
  phone_country: "US",
  phone_number: "",
  status: "active",
})

runProviderTests<ProfileIdentity>({
  provider: Zoom,
  authorization: { url: "https://zoom.us/oauth/authorize", scope: null, checks: ["pkce", "state"] },
  token: { url: "https://zoom.us/oauth/token", clientAuth: "client_secret_basic" },
  resources: [profileAt("https://api.zoom.us/v2/users/me")],
  identities: {
    // `verified` is the account's, not the address's: nothing is vouched for.
    verified: {
      sub: "zJKyaiAyTNC-MWjiWC18KQ",
      profile: user("zJKyaiAyTNC-MWjiWC18KQ", "Jill", "Chill", "jchill@zoom.example", 1),
      expect: {
        user: {
          id: "zJKyaiAyTNC-MWjiWC18KQ",
          name: "Jill Chill",
          email: "jchill@zoom.example",
          image: "https://zoom.example/p/zJKyaiAyTNC-MWjiWC18KQ",
        },
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "z8dsdsdsdsdCfp8uQ",
      profile: user("z8dsdsdsdsdCfp8uQ", "Harry", "Grande", "harry@zoom.example", 0),
      expect: {
        user: {
          id: "z8dsdsdsdsdCfp8uQ",
          name: "Harry Grande",
          email: "harry@zoom.example",
          image: "https://zoom.example/p/z8dsdsdsdsdCfp8uQ",
        },
        verifiedEmail: null,
      },
    },
  },
})
