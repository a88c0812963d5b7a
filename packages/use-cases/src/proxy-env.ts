import type { ProxySettings } from "@fleet-auditor/http";
import { optional, preprocess, string, url, type ZodType } from "zod";

// An empty variable (`HTTPS_PROXY=`) is how a shell unsets one for a command: read it as unset.
const unlessEmpty = <T extends ZodType>(schema: T) => preprocess((v) => (v === "" ? undefined : v), schema);
const proxyUrl = () => unlessEmpty(optional(url({ protocol: /^(https?|socks5?)$/ })));

/**
 * The proxy variables, spread into a process's environment schema. Both spellings, as curl and
 * undici read them, the lower-case one winning. A proxy URL may carry `user:password@`: a
 * problem with one is named, its value never repeated.
 */
export const PROXY_VARIABLES = {
  https_proxy: proxyUrl(),
  HTTPS_PROXY: proxyUrl(),
  http_proxy: proxyUrl(),
  HTTP_PROXY: proxyUrl(),
  no_proxy: unlessEmpty(optional(string())),
  NO_PROXY: unlessEmpty(optional(string())),
};

type ProxyVariables = Partial<Record<keyof typeof PROXY_VARIABLES, string>>;

/**
 * The proxy settings the variables describe, for `createHttpAgent` and `KebTransport`; undefined
 * when neither proxy is set (every request then goes directly, and `NO_PROXY` alone changes nothing).
 */
export function proxyFrom(env: ProxyVariables): ProxySettings | undefined {
  const httpsProxy = env.https_proxy ?? env.HTTPS_PROXY;
  const httpProxy = env.http_proxy ?? env.HTTP_PROXY;
  if (!httpsProxy && !httpProxy) return undefined;
  const noProxy = env.no_proxy ?? env.NO_PROXY;
  return {
    ...(httpsProxy ? { httpsProxy } : {}),
    ...(httpProxy ? { httpProxy } : {}),
    ...(noProxy ? { noProxy } : {}),
  };
}
