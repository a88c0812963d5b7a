import { isIP } from "node:net";

/**
 * True for localhost (and `*.localhost`), 127.0.0.0/8 and ::1: the hosts the HTTP agent always
 * reaches directly, whatever the proxy variables say, and the only ones plain http is allowed to
 * where a secret travels.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}
