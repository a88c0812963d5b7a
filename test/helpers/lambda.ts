import type { Context } from "aws-lambda";

/** A Lambda context with the fields Powertools reads. */
export function fakeContext(functionName = "fleet-auditor-audit"): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${functionName}`,
    memoryLimitInMB: "512",
    awsRequestId: crypto.randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: "2026/11/29/[$LATEST]test",
    getRemainingTimeInMillis: () => 60_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Sets environment variables for one scenario; returns a function that restores them. */
export function withEnv(vars: Record<string, string | undefined>): () => void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  return () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

/**
 * What a handler needs to run against the emulators on loopback: a region, dummy credentials, the
 * endpoints, and Powertools quiet (no logs below critical, no metrics).
 */
export function emulatorEnv(endpoints: { dynamodb: string; sns?: string }): Record<string, string> {
  return {
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    ...(endpoints.sns ? { AWS_ENDPOINT_URL_SNS: endpoints.sns } : {}),
    POWERTOOLS_LOG_LEVEL: "CRITICAL",
    POWERTOOLS_METRICS_DISABLED: "true",
  };
}

/** A scheduled time `k` hours after a whole hour `back` hours ago: near the clock, as runs that write require. */
export function recentHour(k: number, back = 6): string {
  const HOUR = 3_600_000;
  return new Date(Math.floor(Date.now() / HOUR) * HOUR - (back - k) * HOUR).toISOString();
}
