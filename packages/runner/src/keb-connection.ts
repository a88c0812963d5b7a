import {
  ClientCredentialsTokenProvider,
  KebClient,
  PasswordTokenProvider,
  StaticTokenProvider,
  type TokenProvider,
} from "@fleet-auditor/keb";
import type { Dispatcher } from "undici";
import { object, enum as oneOf, optional, type output, string, url } from "zod";

/**
 * The KEB connection as environment variables, shared by the function and the CLI. Auth is one of:
 * `KEB_TOKEN` (a static bearer token), or `KEB_TOKEN_URL` + `KEB_CLIENT_ID` with either
 * `KEB_CLIENT_SECRET` (client credentials) or `KEB_USERNAME` + `KEB_PASSWORD` (password grant).
 */
export const KebEnvSchema = object({
  KEB_URL: url({ protocol: /^https?$/ }),
  KEB_TOKEN: optional(string().min(1)),
  KEB_TOKEN_URL: optional(url({ protocol: /^https?$/ })),
  KEB_CLIENT_ID: optional(string().min(1)),
  KEB_CLIENT_SECRET: optional(string().min(1)),
  KEB_USERNAME: optional(string().min(1)),
  KEB_PASSWORD: optional(string().min(1)),
  KEB_SCOPE: optional(string().min(1)),
  KEB_TOKEN_FIELD: optional(oneOf(["access_token", "id_token"])),
  KEB_CLIENT_AUTH: optional(oneOf(["basic", "post"])),
}).superRefine((env, ctx) => {
  const oauth = env.KEB_TOKEN_URL !== undefined;
  if (!env.KEB_TOKEN && !oauth) {
    ctx.addIssue({
      code: "custom",
      path: ["KEB_TOKEN"],
      message: "set KEB_TOKEN, or KEB_TOKEN_URL with client credentials or a user",
    });
  }
  if (oauth && !env.KEB_CLIENT_ID)
    ctx.addIssue({ code: "custom", path: ["KEB_CLIENT_ID"], message: "required with KEB_TOKEN_URL" });
  if (oauth && !env.KEB_CLIENT_SECRET && !(env.KEB_USERNAME && env.KEB_PASSWORD)) {
    ctx.addIssue({
      code: "custom",
      path: ["KEB_CLIENT_SECRET"],
      message:
        "KEB_TOKEN_URL needs KEB_CLIENT_SECRET (client credentials) or KEB_USERNAME and KEB_PASSWORD (password grant)",
    });
  }
});

export type KebEnv = output<typeof KebEnvSchema>;

/** The token provider the variables describe. The password grant wins when a user is given. */
export function tokenProviderFrom(env: KebEnv, dispatcher: Dispatcher): TokenProvider {
  if (!env.KEB_TOKEN_URL) return new StaticTokenProvider(env.KEB_TOKEN as string);
  const common = {
    tokenUrl: env.KEB_TOKEN_URL,
    clientId: env.KEB_CLIENT_ID as string,
    clientSecret: env.KEB_CLIENT_SECRET,
    scope: env.KEB_SCOPE,
    tokenField: env.KEB_TOKEN_FIELD,
    clientAuth: env.KEB_CLIENT_AUTH,
    dispatcher,
  };
  if (env.KEB_USERNAME && env.KEB_PASSWORD) {
    return new PasswordTokenProvider({ ...common, username: env.KEB_USERNAME, password: env.KEB_PASSWORD });
  }
  return new ClientCredentialsTokenProvider({ ...common, clientSecret: env.KEB_CLIENT_SECRET as string });
}

/** A KEB client for these variables. */
export function kebClientFrom(env: KebEnv, dispatcher: Dispatcher): KebClient {
  return new KebClient({
    baseUrl: env.KEB_URL,
    dispatcher,
    tokenProvider: tokenProviderFrom(env, dispatcher),
  });
}
