import type { ProxySettings } from "@fleet-auditor/http";
import {
  ClientCredentialsTokenProvider,
  KebAuthError,
  KebClient,
  KebTransport,
  PasswordTokenProvider,
  StaticTokenProvider,
  type TokenProvider,
  type TransportOptions,
} from "@fleet-auditor/keb";
import {
  PROXY_VARIABLES,
  proxyFrom,
  SecretIdSchema,
  type SecretReader,
  type SecretRef,
  SecretUnreadableError,
  secretOf,
  secretRef,
  secretVariable,
} from "@fleet-auditor/use-cases";
import { NEVER, object, enum as oneOf, optional, string, url } from "zod";

/** Settings both OAuth2 grants share. */
interface OAuth2Settings {
  tokenUrl: string;
  clientId: string;
  scope?: string;
  tokenField?: "access_token" | "id_token";
  clientAuth?: "basic" | "post";
}

/** How the auditor authenticates to KEB: exactly one of three ways. */
export type KebAuth =
  | { kind: "static"; token: string }
  | ({ kind: "client-credentials"; clientSecret: SecretRef } & OAuth2Settings)
  | ({ kind: "password"; username: string; password: SecretRef; clientSecret?: string } & OAuth2Settings);

/** The KEB connection: where, how to authenticate, and the proxy on the way, if any. */
export interface KebConnection {
  KEB_URL: string;
  auth: KebAuth;
  /** From `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY`; absent when no proxy is set. */
  proxy?: ProxySettings;
  /**
   * The https proxy's URL kept in Secrets Manager (`HTTPS_PROXY_ARN`: one with `user:password@`),
   * in place of `proxy.httpsProxy`; absent when `HTTPS_PROXY` gives it (which wins) or none is set.
   */
  httpsProxySecret?: SecretRef;
}

/** A proxy URL read from Secrets Manager, checked as `HTTPS_PROXY` is. */
const proxySecretUrl = () => url({ protocol: /^(https?|socks5?)$/ });

const KebVariables = object({
  KEB_URL: url({ protocol: /^https?$/ }),
  KEB_TOKEN: optional(secretVariable()),
  KEB_TOKEN_URL: optional(url({ protocol: /^https?$/ })),
  KEB_CLIENT_ID: optional(string().min(1)),
  KEB_CLIENT_SECRET: optional(secretVariable()),
  /** Where the client secret is kept instead (Secrets Manager), read when a token is fetched. */
  KEB_CLIENT_SECRET_ARN: SecretIdSchema,
  KEB_USERNAME: optional(string().min(1)),
  KEB_PASSWORD: optional(secretVariable()),
  /** Where the password is kept instead (Secrets Manager), read when a token is fetched. */
  KEB_PASSWORD_ARN: SecretIdSchema,
  /** Where a proxy URL with credentials is kept (Secrets Manager), read before KEB is asked. */
  HTTPS_PROXY_ARN: SecretIdSchema,
  KEB_SCOPE: optional(string().min(1)),
  KEB_TOKEN_FIELD: optional(oneOf(["access_token", "id_token"])),
  KEB_CLIENT_AUTH: optional(oneOf(["basic", "post"])),
  ...PROXY_VARIABLES,
});

/**
 * The KEB connection as environment variables, shared by the function and the CLI, parsed into
 * a tagged union. Auth is one of: `KEB_TOKEN` (a static bearer token), or `KEB_TOKEN_URL` +
 * `KEB_CLIENT_ID` with either `KEB_CLIENT_SECRET` (client credentials; or `KEB_CLIENT_SECRET_ARN`,
 * the Secrets Manager secret that holds it, as deployed) or `KEB_USERNAME` + `KEB_PASSWORD`
 * (password grant; it wins when a user is given; or `KEB_PASSWORD_ARN`). A proxy with
 * credentials may be kept in Secrets Manager too, its ARN in `HTTPS_PROXY_ARN`.
 */
export const KebEnvSchema = KebVariables.transform((env, ctx): KebConnection => {
  const proxy = proxyFrom(env);
  // A proxy given in the variable wins, as a value does over its `_ARN` everywhere.
  const httpsProxySecret =
    (env.https_proxy ?? env.HTTPS_PROXY)
      ? undefined
      : secretRef("HTTPS_PROXY", undefined, env.HTTPS_PROXY_ARN, proxySecretUrl());
  const connection = (auth: KebAuth): KebConnection => ({
    KEB_URL: env.KEB_URL,
    auth,
    ...(proxy ? { proxy } : {}),
    ...(httpsProxySecret ? { httpsProxySecret } : {}),
  });
  const problem = (variable: string, message: string): typeof NEVER => {
    ctx.addIssue({ code: "custom", path: [variable], message });
    return NEVER;
  };
  if (!env.KEB_TOKEN_URL) {
    if (!env.KEB_TOKEN)
      return problem("KEB_TOKEN", "set KEB_TOKEN, or KEB_TOKEN_URL with client credentials or a user");
    return connection({ kind: "static", token: env.KEB_TOKEN });
  }
  if (!env.KEB_CLIENT_ID) return problem("KEB_CLIENT_ID", "required with KEB_TOKEN_URL");
  const oauth: OAuth2Settings = {
    tokenUrl: env.KEB_TOKEN_URL,
    clientId: env.KEB_CLIENT_ID,
    scope: env.KEB_SCOPE,
    tokenField: env.KEB_TOKEN_FIELD,
    clientAuth: env.KEB_CLIENT_AUTH,
  };
  const password = secretRef("KEB_PASSWORD", env.KEB_PASSWORD, env.KEB_PASSWORD_ARN, secretVariable());
  if (env.KEB_USERNAME && password) {
    return connection({
      kind: "password",
      ...oauth,
      username: env.KEB_USERNAME,
      password,
      clientSecret: env.KEB_CLIENT_SECRET,
    });
  }
  const clientSecret = secretRef(
    "KEB_CLIENT_SECRET",
    env.KEB_CLIENT_SECRET,
    env.KEB_CLIENT_SECRET_ARN,
    secretVariable(),
  );
  if (!clientSecret) {
    if (password) return problem("KEB_USERNAME", "required with KEB_PASSWORD or KEB_PASSWORD_ARN");
    return problem(
      "KEB_CLIENT_SECRET",
      "KEB_TOKEN_URL needs KEB_CLIENT_SECRET (or KEB_CLIENT_SECRET_ARN: client credentials) or KEB_USERNAME and KEB_PASSWORD (or KEB_PASSWORD_ARN: password grant)",
    );
  }
  return connection({ kind: "client-credentials", ...oauth, clientSecret });
});

/**
 * The token provider an auth setting describes; `secrets` reads a client secret kept in Secrets
 * Manager (without it, such a setting fails naming `KEB_CLIENT_SECRET_ARN`).
 */
function tokenProviderFrom(auth: KebAuth, transport: KebTransport, secrets?: SecretReader): TokenProvider {
  switch (auth.kind) {
    case "static":
      return new StaticTokenProvider(auth.token);
    case "password": {
      const { kind: _kind, password, ...options } = auth;
      const source = secretOf(password, secrets);
      const value = "value" in password ? password.value : (o: { fresh: boolean }) => source(o);
      return new PasswordTokenProvider({ ...options, password: value, transport });
    }
    case "client-credentials": {
      const { kind: _kind, clientSecret, ...options } = auth;
      const source = secretOf(clientSecret, secrets);
      // A value of one's own stays a string: nothing to re-read after a 401. A secret that cannot
      // be read is KEB's auth failing: as a KebAuthError it stays the scan's error (with the
      // secret's as its cause), where a run tells "not configured yet" from a failure.
      const secret =
        "value" in clientSecret
          ? clientSecret.value
          : (o: { fresh: boolean }) =>
              source(o).catch((err: unknown) => {
                throw err instanceof SecretUnreadableError
                  ? new KebAuthError(err.message, { cause: err })
                  : err;
              });
      return new ClientCredentialsTokenProvider({ ...options, clientSecret: secret, transport });
    }
  }
}

/**
 * The transport for this connection: its proxy, and a proxy URL kept in Secrets Manager read
 * through `secrets` (without it, such a setting fails naming `HTTPS_PROXY_ARN`). Create it once
 * per process.
 */
export function kebTransportFrom(
  env: KebConnection,
  options: Omit<TransportOptions, "proxy" | "httpsProxySource">,
  secrets?: SecretReader,
): KebTransport {
  const source = env.httpsProxySecret && secretOf(env.httpsProxySecret, secrets);
  return new KebTransport({
    ...options,
    ...(env.proxy ? { proxy: env.proxy } : {}),
    ...(source ? { httpsProxySource: (o: { fresh: boolean }) => source(o) } : {}),
  });
}

/** A KEB client for this connection; `secrets` reads what is kept in Secrets Manager. */
export function kebClientFrom(
  env: KebConnection,
  transport: KebTransport,
  secrets?: SecretReader,
): KebClient {
  return new KebClient({
    baseUrl: env.KEB_URL,
    transport,
    tokenProvider: tokenProviderFrom(env.auth, transport, secrets),
  });
}
