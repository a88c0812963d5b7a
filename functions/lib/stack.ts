import type { Logger } from "@aws-lambda-powertools/logger";
import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import type { Metrics } from "@aws-lambda-powertools/metrics";
import { logMetrics } from "@aws-lambda-powertools/metrics/middleware";
import middy from "@middy/core";
import type { Context } from "aws-lambda";

/**
 * The middy stack every function uses: context in the logs and, for a function that records
 * metrics, EMF flushed per invocation. No `ColdStart` metric: each is a custom metric on the bill
 * per function (docs/capacity.md#cost), and the logger's `cold_start` field says the same.
 */
export function functionStack<TEvent, TResult>(logger: Logger, metrics?: Metrics) {
  const stack = middy<TEvent, TResult, Error, Context>().use(
    injectLambdaContext(logger, { clearState: true }),
  );
  return metrics ? stack.use(logMetrics(metrics)) : stack;
}
