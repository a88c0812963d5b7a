import { type Dispatcher, interceptors, type RetryHandler } from "undici";
import { brokenOff, retryUntil } from "./retry-until.ts";

/**
 * A request for a dispatcher composed with `RETRY_INTERCEPTORS`: undici's request options and
 * the retry handler's `retryOptions` (`{ retry: retryUntil(deadlineAt) }`), which undici's
 * request type does not name.
 */
export type RetryingRequest = Dispatcher.RequestOptions & { retryOptions: RetryHandler.RetryOptions };

/**
 * undici's retry interceptor, deciding with `retryUntil` (pass it per request as
 * `retryOptions.retry`), a final answer handed on whatever its status (`throwOnError: false`).
 * Inside it, a marker of the errors that break a response off once its headers came: undici's
 * retry handler would resume those with a `Range` request, which KEB ignores (it would splice
 * two answers of a list that moves) and which would send a POST again; `retryUntil` never
 * retries them, and a caller that wants the answer asks again from the start (the KEB client
 * asks for the whole page again). Compose in this order, onto `createHttpAgent`'s agent.
 */
export const RETRY_INTERCEPTORS: Dispatcher.DispatcherComposeInterceptor[] = [
  (dispatch) => (options, handler) => dispatch(options, new BrokenOffMarker(handler)),
  interceptors.retry({ throwOnError: false, retry: retryUntil(Number.POSITIVE_INFINITY) }),
];

/** The arguments undici passes to a handler's `name` event. */
type On<K extends keyof Dispatcher.DispatchHandler> = Parameters<NonNullable<Dispatcher.DispatchHandler[K]>>;

/** Hands every event on; an error after a final response started is remembered as broken off. */
class BrokenOffMarker implements Dispatcher.DispatchHandler {
  readonly #handler: Dispatcher.DispatchHandler;
  #started = false;

  constructor(handler: Dispatcher.DispatchHandler) {
    this.#handler = handler;
  }

  onRequestStart(...args: On<"onRequestStart">): void {
    this.#handler.onRequestStart?.(...args);
  }

  onRequestUpgrade(...args: On<"onRequestUpgrade">): void {
    this.#handler.onRequestUpgrade?.(...args);
  }

  onResponseStart(...args: On<"onResponseStart">): void {
    if (args[1] >= 200) this.#started = true;
    this.#handler.onResponseStart?.(...args);
  }

  onResponseData(...args: On<"onResponseData">): void {
    this.#handler.onResponseData?.(...args);
  }

  onResponseEnd(...args: On<"onResponseEnd">): void {
    this.#handler.onResponseEnd?.(...args);
  }

  onResponseError(...args: On<"onResponseError">): void {
    if (this.#started) brokenOff.add(args[1]);
    this.#handler.onResponseError?.(...args);
  }

  onBodySent(...args: On<"onBodySent">): void {
    this.#handler.onBodySent?.(...args);
  }

  onRequestSent(): void {
    this.#handler.onRequestSent?.();
  }
}
