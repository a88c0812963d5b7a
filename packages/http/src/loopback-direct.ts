import { Dispatcher } from "undici";
import { isLoopbackHost } from "./loopback.ts";

/**
 * Sends loopback origins to one dispatcher, every other origin to another: with a proxy set, a
 * simulator, a test or a local KEB must never be sent to it.
 */
export class LoopbackDirect extends Dispatcher {
  readonly #direct: Dispatcher;
  readonly #proxied: Dispatcher;

  constructor(direct: Dispatcher, proxied: Dispatcher) {
    super();
    this.#direct = direct;
    this.#proxied = proxied;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = options.origin === undefined ? undefined : new URL(String(options.origin));
    const loopback = origin !== undefined && isLoopbackHost(origin.hostname);
    return (loopback ? this.#direct : this.#proxied).dispatch(options, handler);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const closed = Promise.all([this.#direct.close(), this.#proxied.close()]).then(() => undefined);
    if (!callback) return closed;
    void closed.then(callback);
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    const err = typeof a === "function" ? null : (a ?? null);
    const callback = typeof a === "function" ? a : b;
    const destroyed = Promise.all([this.#direct.destroy(err), this.#proxied.destroy(err)]).then(
      () => undefined,
    );
    if (!callback) return destroyed;
    void destroyed.then(callback);
  }
}
