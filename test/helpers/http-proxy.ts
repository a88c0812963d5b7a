import { createServer, request } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterAll, beforeAll } from "vitest";

/** Where the proxy sends a host it was asked for; anything else it refuses with 502. */
export type ProxyRoutes = Record<string, { host: "127.0.0.1"; port: () => number }>;

/** A forward and CONNECT proxy on loopback, as a corporate network puts one between a laptop and KEB. */
export interface TestProxy {
  /** `http://127.0.0.1:PORT`, for HTTPS_PROXY and HTTP_PROXY. */
  url: string;
  /** What came through, in order: `CONNECT keb.test:443`, `GET http://keb.test:80/path`. */
  seen: string[];
  /**
   * `user:password` a tunnel must present (`Proxy-Authorization: Basic …`), as a corporate proxy
   * asks; a tunnel without them is refused with 407 (and `seen` says `407 CONNECT …`). Unset: none.
   */
  credentials: string | undefined;
  /** Ends the tunnels open now, as a proxy does when its credentials change. */
  dropTunnels(): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy that answers a `CONNECT host:port` with a tunnel and an absolute-form request
 * (`GET http://host/path`) by forwarding it, but only for the hosts in `routes`, and only to
 * loopback: a name like `keb.test`, which resolves nowhere, reaches a server on this machine
 * through the proxy alone, so a test never reaches outside loopback.
 */
async function startTestProxy(routes: ProxyRoutes): Promise<TestProxy> {
  const seen: string[] = [];
  // A tunnel leaves the HTTP server's hands: closing it must end them too.
  const tunnels = new Set<{ destroy(): void }>();
  const proxy: TestProxy = {
    url: "",
    seen,
    credentials: undefined,
    dropTunnels: () => {
      for (const s of tunnels) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of tunnels) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = URL.canParse(req.url ?? "") ? new URL(req.url ?? "") : undefined;
    const route = target ? routes[target.hostname] : undefined;
    if (!target || !route) {
      res.writeHead(502, { "content-type": "text/plain" }).end("the test proxy knows no such host");
      return;
    }
    const upstream = request(
      {
        host: route.host,
        port: route.port(),
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.socket?.destroy());
    req.pipe(upstream);
  });
  server.on("connect", (req, client, head) => {
    const wanted = proxy.credentials && `Basic ${Buffer.from(proxy.credentials).toString("base64")}`;
    if (wanted && req.headers["proxy-authorization"] !== wanted) {
      seen.push(`407 CONNECT ${req.url}`);
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n',
      );
      return;
    }
    seen.push(`CONNECT ${req.url}`);
    const route = routes[(req.url ?? "").replace(/:\d+$/, "")];
    if (!route) {
      client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
      return;
    }
    const upstream = connect(route.port(), route.host, () => {
      for (const s of [client, upstream]) {
        tunnels.add(s);
        s.on("close", () => tunnels.delete(s));
      }
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

/** A test proxy for one test file, started before its tests and closed after. */
export function useTestProxy(routes: ProxyRoutes): { proxy: TestProxy } {
  const holder = {} as { proxy: TestProxy };
  beforeAll(async () => {
    holder.proxy = await startTestProxy(routes);
  });
  afterAll(async () => {
    await holder.proxy?.close();
  });
  return holder;
}
