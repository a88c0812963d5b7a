import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";

// What every stand-in server of the tests does alike: listen on a free loopback port, close with
// its open connections, and live for one test file.

/** Starts `server` on a free loopback port: its origin, and a close that ends open connections too. */
export async function onLoopback(server: Server): Promise<{ origin: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What `start` gives, started before the file's tests and closed after them, as `holder[key]`;
 * `beforeEachTest` runs on it before each test (a reset).
 */
export function forTheFile<K extends string, T extends { close(): Promise<void> }>(
  key: K,
  start: () => Promise<T>,
  beforeEachTest?: (started: T) => void,
): Record<K, T> {
  const holder = {} as Record<K, T>;
  beforeAll(async () => {
    holder[key] = await start();
  });
  if (beforeEachTest) beforeEach(() => beforeEachTest(holder[key]));
  afterAll(async () => {
    await holder[key]?.close();
  });
  return holder;
}
