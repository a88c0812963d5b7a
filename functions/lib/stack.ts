import type { Logger } from "@aws-lambda-powertools/logger";
import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import type { Metrics } from "@aws-lambda-powertools/metrics";
import { logMetrics } from "@aws-lambda-powertools/metrics/middleware";
import middy from "@middy/core";
import type { Context } from "aws-lambda";

/** The middy stack every function uses: context in the logs, EMF metrics flushed per invocation. */
export function functionStack<TEvent, TResult>(logger: Logger, metrics: Metrics) {
  return middy<TEvent, TResult, Error, Context>()
    .use(injectLambdaContext(logger, { clearState: true }))
    .use(logMetrics(metrics, { captureColdStartMetric: true }));
}
