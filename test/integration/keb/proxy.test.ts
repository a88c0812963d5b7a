import type { ProxySettings } from "@fleet-auditor/http";
import {
  ClientCredentialsTokenProvider,
  KebClient,
  KebTransport,
  StaticTokenProvider,
} from "@fleet-auditor/keb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestProxy } from "../../helpers/http-proxy.ts";
import { useKebSimulator } from "../../helpers/keb.ts";
import { startTlsRelay, type TlsRelay, testCertificate, trustInThisProcess } from "../../helpers/test-tls.ts";

// The KEB client behind a corporate proxy: `keb.test` resolves nowhere, so the client reaches it
// only through the proxy, which tunnels it to a TLS relay in front of the simulator. Nothing
// leaves loopback: a host the proxy does not know is answered 502 by the proxy itself.

const kit = useKebSimulator({
  fleet: { size: 30, seed: 7, flagged: 5 },
  auth: { clients: [{ id: "auditor", secret: "proxy-secret-value", groups: ["runtimeViewer"] }] },
});
const certificate = testCertificate("keb.test");
let relay: TlsRelay;
beforeAll(async () => {
  trustInThisProcess(certificate.cert);
  relay = await startTlsRelay(certificate, () => simPort());
});
afterAll(async () => {
  await relay?.close();
});
const proxy = useTestProxy({ "keb.test": { host: "127.0.0.1", port: () => relay.port } });

const page = { states: ["all" as const], page: 1 };
const simPort = (): number => Number(new URL(kit.sim.url).port);
const transports: KebTransport[] = [];
afterAll(async () => {
  await Promise.all(transports.map((t) => t.close()));
});

/** A transport through the test proxy, closed after the file. */
function via(settings: (proxyUrl: string) => ProxySettings): KebTransport {
  const transport = new KebTransport({ proxy: settings(proxy.proxy.url), headersTimeoutMs: 5000 });
  transports.push(transport);
  return transport;
}

function clientAt(baseUrl: string, transport: KebTransport, tokenUrl: string): KebClient {
  const tokenProvider = new ClientCredentialsTokenProvider({
    tokenUrl,
    clientId: "auditor",
    clientSecret: "proxy-secret-value",
    transport,
  });
  return new KebClient({ baseUrl, transport, tokenProvider, retry: { maxRetries: 0 } });
}

describe("the KEB client behind a proxy", () => {
  it("reaches KEB and its token endpoint at a name outside loopback through HTTPS_PROXY, in a CONNECT tunnel", async () => {
    const transport = via((url) => ({ httpsProxy: url }));
    const before = { ...kit.sim.stats.byPath };
    const client = clientAt("https://keb.test", transport, "https://keb.test/oauth2/token");
    await expect(client.listPage(page)).resolves.toMatchObject({ totalCount: 30, count: 30 });
    expect(proxy.proxy.seen).toContain("CONNECT keb.test:443");
    expect((kit.sim.stats.byPath["/oauth2/token"] ?? 0) - (before["/oauth2/token"] ?? 0)).toBe(1);
    expect((kit.sim.stats.byPath["/runtimes"] ?? 0) - (before["/runtimes"] ?? 0)).toBe(1);
  });

  it("uses HTTP_PROXY for https too when HTTPS_PROXY is not set", async () => {
    const seen = proxy.proxy.seen.length;
    const client = clientAt(
      "https://keb.test",
      via((url) => ({ httpProxy: url })),
      "https://keb.test/oauth2/token",
    );
    await expect(client.listPage(page)).resolves.toMatchObject({ totalCount: 30 });
    expect(proxy.proxy.seen.slice(seen)).toContain("CONNECT keb.test:443");
  });

  it("never sends a loopback host to the proxy, whatever NO_PROXY says", async () => {
    const transport = via((url) => ({ httpsProxy: url, httpProxy: url, noProxy: "example.com" }));
    const seen = proxy.proxy.seen.length;
    for (const host of [`127.0.0.1:${simPort()}`, `localhost:${simPort()}`]) {
      const client = clientAt(`http://${host}`, transport, `http://${host}/oauth2/token`);
      await expect(client.listPage(page)).resolves.toMatchObject({ totalCount: 30 });
    }
    expect(proxy.proxy.seen.slice(seen)).toEqual([]);
  });

  it("reaches a host NO_PROXY names directly, and sends it to the proxy when NO_PROXY does not name it", async () => {
    // 0.0.0.0 is no loopback name, yet Linux connects it to this machine: a direct request
    // reaches the simulator without leaving loopback, a proxied one meets the proxy's 502.
    const url = `http://0.0.0.0:${simPort()}/runtimes?page=1`;
    const send = (transport: KebTransport) =>
      transport.send(
        url,
        { method: "GET", headers: { authorization: "Bearer none" } },
        { signal: AbortSignal.timeout(10_000), deadlineAt: Date.now() + 10_000, retry: { maxRetries: 0 } },
      );
    const seen = proxy.proxy.seen.length;
    const direct = await send(via((u) => ({ httpProxy: u, noProxy: "keb.test, 0.0.0.0" })));
    expect(direct.statusCode).toBe(401);
    expect(await direct.body.text()).toBe("Jwt verification fails");
    expect(proxy.proxy.seen.slice(seen)).toEqual([]);

    const proxied = await send(via((u) => ({ httpProxy: u, noProxy: "keb.test" })));
    expect(proxied.statusCode).toBe(502);
    await proxied.body.dump();
    expect(proxy.proxy.seen.slice(seen)).toEqual([`GET ${url}`]);
  });

  it("after a rotation, a stale read of the proxy's value that the fresh one overtook does not switch back", async () => {
    const withCredentials = (credentials: string) => proxy.proxy.url.replace("//", `//${credentials}@`);
    const [before, after] = [withCredentials("auditor:before"), withCredentials("auditor:after")];
    proxy.proxy.credentials = "auditor:after";
    proxy.proxy.dropTunnels();
    // The fresh read (after the 407) and a second request's cached read, each held until released.
    let releaseFresh: () => void = () => undefined;
    let releaseStale: () => void = () => undefined;
    const freshGate = new Promise<void>((r) => (releaseFresh = r));
    const staleGate = new Promise<void>((r) => (releaseStale = r));
    const reads = { fresh: 0, cached: 0 };
    const transport = new KebTransport({
      headersTimeoutMs: 5000,
      httpsProxySource: async ({ fresh }) => {
        if (fresh) {
          reads.fresh++;
          await freshGate;
          return after;
        }
        // The cache still holds the value from before the rotation; the second read comes back late.
        if (++reads.cached === 2) await staleGate;
        return before;
      },
    });
    transports.push(transport);
    const send = () =>
      transport.send(
        "https://keb.test/runtimes?page=1",
        { method: "GET", headers: { authorization: "Bearer none" } },
        { signal: AbortSignal.timeout(10_000), deadlineAt: Date.now() + 10_000, retry: { maxRetries: 0 } },
      );
    try {
      const seen = proxy.proxy.seen.length;
      const first = send();
      await vi.waitFor(() => expect(reads.fresh).toBe(1));
      const second = send();
      await vi.waitFor(() => expect(reads.cached).toBe(2));
      releaseFresh();
      const a = await first;
      releaseStale();
      const b = await second;
      // Both reached KEB (which refuses the token) through the proxy with the rotated password.
      expect([a.statusCode, b.statusCode]).toEqual([401, 401]);
      await Promise.all([a.body.dump(), b.body.dump()]);
      // One refusal and one fresh read: the late cached read did not bring the old password back.
      expect(proxy.proxy.seen.slice(seen).filter((l) => l.startsWith("407"))).toHaveLength(1);
      expect(reads.fresh).toBe(1);
    } finally {
      proxy.proxy.credentials = undefined;
    }
  });

  it("sends a static token only to KEB, never to the proxy in the clear", async () => {
    const seen = proxy.proxy.seen.length;
    const client = new KebClient({
      baseUrl: "https://keb.test",
      transport: via((url) => ({ httpsProxy: url })),
      tokenProvider: new StaticTokenProvider("not-a-valid-token"),
      retry: { maxRetries: 0 },
    });
    // KEB refuses the token; the proxy saw a tunnel, not the request and its Authorization header.
    await expect(client.listPage(page)).rejects.toMatchObject({ code: "KEB_AUTH", status: 401 });
    expect(proxy.proxy.seen.slice(seen)).toEqual(["CONNECT keb.test:443"]);
  });
});
