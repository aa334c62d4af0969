/** Notion: owner=user, HTTP Basic, the bot's owner as the user. */
import { expect, test } from "vitest"
import { json } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Notion, { NOTION_API_VERSION } from "@tessera/core/providers/notion"
import type { ProfileIdentity } from "./helpers.js"

const person = (id: string, name: string, email: string) => ({
  object: "user",
  id,
  type: "person",
  name,
  avatar_url: `https://s3.notion.example/${id}.png`,
  person: { email },
})

const suite = runProviderTests<ProfileIdentity>({
  provider: Notion,
  authorization: {
    url: "https://api.notion.com/v1/oauth/authorize",
    scope: null,
    checks: ["pkce", "state"],
    params: { owner: "user" },
  },
  token: {
    url: "https://api.notion.com/v1/oauth/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken, identity }) => ({
      access_token: accessToken,
      token_type: "bearer",
      bot_id: "b3414d65-1224-4d5e-a7fd-ee68d0e21f00",
      workspace_name: "Acme",
      workspace_icon: "https://s3.notion.example/icon.png",
      workspace_id: "9a0d1bd4-9bdb-4d1c-9b59-43e39ef0f8d4",
      owner: { type: "user", user: identity.profile },
      duplicated_template_id: null,
      request_id: "f8a4c2b1-0000-4000-8000-000000000000",
    }),
    error: () =>
      json({ error: "invalid_grant", error_description: "Invalid code.", request_id: "r" }, 400),
  },
  resources: [
    {
      url: "https://api.notion.com/v1/users/me",
      response: ({ identity, request }) => {
        expect(request.headers.get("notion-version")).toBe(NOTION_API_VERSION)
        return identity.owner === "workspace"
          ? {
              object: "user",
              id: "bot-1",
              type: "bot",
              bot: { owner: { type: "workspace", workspace: true } },
            }
          : {
              object: "user",
              id: "bot-1",
              type: "bot",
              bot: { owner: { type: "user", user: identity.profile } },
            }
      },
    },
  ],
  identities: {
    verified: {
      sub: "ada",
      profile: person("e79a0b74-3aba-4149-9f74-0bb5791a6ee6", "Ada Notion", "ada@notion.example"),
      expect: {
        user: {
          id: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6",
          name: "Ada Notion",
          email: "ada@notion.example",
          image: "https://s3.notion.example/e79a0b74-3aba-4149-9f74-0bb5791a6ee6.png",
        },
        // Notion sends no flag saying it verified the address.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "bob",
      profile: {
        object: "user",
        id: "0b1c",
        type: "person",
        name: null,
        avatar_url: null,
        person: {},
      },
      expect: { user: { id: "0b1c", name: null, email: null, image: null }, verifiedEmail: null },
    },
    workspace: { sub: "workspace", owner: "workspace", profile: null, expect: {} },
  },
})

test("a workspace-owned integration signs nobody in", async () => {
  const { session, errors } = await suite.signIn("workspace")
  expect(session).toBeNull()
  expect(errors.at(-1)?.message).toMatch(/owned by a workspace/)
})
