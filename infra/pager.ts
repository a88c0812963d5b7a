// PagerDuty (Events API v2) from the Critical topic: each critical incident's opening and end and
// the health notices, as trigger and resolve under the incident's key; deployed only on a stage
// whose `pagerDuty` in stages.json is true, its routing key created in Secrets Manager for the
// operator to set (docs/deploy.md#secrets). Each incident's and health episode's last event sent
// is kept in the audit table, so that an older one Lambda retries late is dropped.

import { type alarmTo, functionAlarms, watchedFunction } from "./alarms.ts";
import type { Failures } from "./failures.ts";
import { managedSecret, readSecret } from "./secrets.ts";

/**
 * The pager function on the Critical topic. It may read its secret, read and write its order items
 * in the audit table, and fail to its destination.
 */
export function pagerFunction(deps: {
  critical: sst.aws.SnsTopic;
  auditTable: sst.aws.Dynamo;
  failures: Failures;
  protectedStage: boolean;
  alarm: ReturnType<typeof alarmTo>;
}): void {
  const routingKey = managedSecret(
    "PagerDutyRoutingKey",
    "the PagerDuty Events API v2 routing key",
    deps.protectedStage,
  );
  const args = {
    handler: "functions/pager.handler",
    // Room for a few backoffs after a 429 or a 5xx; an event still not taken throws, Lambda
    // retries twice, then the event goes to Failures.
    timeout: "1 minute",
    memory: "256 MB",
    retries: 2,
    transform: deps.failures.destination,
    permissions: [
      readSecret(routingKey),
      deps.failures.send,
      // The last event sent per key (partition keys PAGER#<key>, store's `itemKey.messageOrder`)
      // and those items only: held and recorded by UpdateItem, read by GetItem where a refused
      // condition comes back without the item.
      {
        actions: ["dynamodb:GetItem", "dynamodb:UpdateItem"],
        resources: [deps.auditTable.arn],
        conditions: [
          { test: "ForAllValues:StringLike", variable: "dynamodb:LeadingKeys", values: ["PAGER#*"] },
        ],
      },
    ],
    environment: { PAGERDUTY_ROUTING_KEY_ARN: routingKey.arn, AUDIT_TABLE: deps.auditTable.name },
  } satisfies sst.aws.FunctionArgs;
  const pager = deps.critical.subscribe("Pager", args);
  functionAlarms(deps.alarm, watchedFunction("Pager", pager.nodes.function.name, args, 2));
}
