import { Agent, type Dispatcher, interceptors } from "undici";

/** Socket-level limits of the KEB dispatcher. */
export interface TransportOptions {
  /** TCP+TLS connect timeout, ms. Default 5000. */
  connectTimeoutMs?: number;
  /** Time to the response headers, ms. Default 15000 (KEB builds a page of 100 with ~200 DB queries). */
  headersTimeoutMs?: number;
  /** Longest pause between body chunks, ms. Default 15000. */
  bodyTimeoutMs?: number;
  /** Keep-alive sockets per origin. Default 8 (twice the default page concurrency). */
  connections?: number;
  /** Largest error body kept for the error message, bytes. Default 4096. */
  errorBodyBytes?: number;
}

/**
 * The one HTTP dispatcher a process uses for KEB and its token endpoint: a keep-alive pool with
 * timeouts, composed with undici's retry interceptor (the policy comes per request, see
 * `retryOptionsUntil`) and its response-error interceptor, which turns a final status >= 400
 * into a `ResponseError` carrying the parsed body. Create it once per cold start.
 */
export function createKebDispatcher(options: TransportOptions = {}): Dispatcher {
  const agent = new Agent({
    connect: { timeout: options.connectTimeoutMs ?? 5000 },
    headersTimeout: options.headersTimeoutMs ?? 15_000,
    bodyTimeout: options.bodyTimeoutMs ?? 15_000,
    connections: options.connections ?? 8,
    keepAliveTimeout: 10_000,
  });
  // compose() applies the last interceptor outermost: retries happen inside, and only the final
  // answer reaches the response-error interceptor.
  return agent.compose(
    interceptors.retry({ throwOnError: false }),
    interceptors.responseError({ maxSize: options.errorBodyBytes ?? 4096 }),
  );
}
