// Failed asynchronous invocations (a scheduled run, or a Slack or pager delivery that threw after
// Lambda's retries) land in one queue instead of vanishing; an alarm watches it.

import { type alarmTo, queueNotEmpty } from "./alarms.ts";

/** The Failures queue, and the `transform` that makes it a function's on-failure destination. */
export interface Failures {
  queue: sst.aws.Queue;
  /** A function's `transform`: failed events go to the queue, stale ones (over an hour) too. */
  destination: sst.aws.FunctionArgs["transform"];
  /** The grant Lambda needs to send there on the function's behalf. */
  send: { actions: string[]; resources: $util.Input<string>[] };
}

/** The Failures queue (kept 14 days) and its alarm. */
export function failuresQueue(alarm: ReturnType<typeof alarmTo>): Failures {
  const queue = new sst.aws.Queue("Failures", {
    transform: { queue: { messageRetentionSeconds: 14 * 86_400 } },
  });
  queueNotEmpty(alarm, "FailuresNotEmpty", queue.nodes.queue.name, "failed asynchronous invocations");
  return {
    queue,
    destination: {
      eventInvokeConfig: {
        // An event older than an hour is stale: the next scheduled run has covered it.
        maximumEventAgeInSeconds: 3_600,
        destinationConfig: { onFailure: { destination: queue.arn } },
      },
    },
    send: { actions: ["sqs:SendMessage"], resources: [queue.arn] },
  };
}
