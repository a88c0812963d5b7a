import { PublishCommand, type SNSClient } from "@aws-sdk/client-sns";
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { type Finding, stateOf } from "@fleet-auditor/audit";
import type { RuntimeSource } from "@fleet-auditor/keb";
import type { KebAuditDefinition } from "@fleet-auditor/keb-audits";

/**
 * The baseline the audit is compared with: how a script would do it. Sequential pages, one
 * GetItem and one PutItem per flagged runtime, one publish per transition. Benchmark use only
 * (it cannot even resolve anything).
 */
export async function naiveAudit(
  deps: {
    source: RuntimeSource;
    ddb: DynamoDBDocumentClient;
    sns: SNSClient;
    topicArn: string;
    table: string;
  },
  audit: KebAuditDefinition,
): Promise<void> {
  const findings: Finding[] = [];
  for (const query of audit.queries) {
    let listed = 0;
    let total = Number.POSITIVE_INFINITY;
    for (let page = 1; listed < total; page++) {
      const got = await deps.source.listPage({ ...query, page, pageSize: 100, operationDetail: "last" });
      listed += got.data.length;
      total = got.totalCount;
      for (const runtime of got.data) {
        const finding = audit.classify(runtime);
        if (finding) findings.push(finding);
      }
      if (got.data.length === 0) break;
    }
  }
  for (const f of findings) {
    const key = { pk: `NAIVE#${audit.name}`, sk: f.key };
    const prev = await deps.ddb.send(new GetCommand({ TableName: deps.table, Key: key }));
    if (prev.Item?.state !== stateOf(f)) {
      await deps.sns.send(
        new PublishCommand({
          TopicArn: deps.topicArn,
          Subject: `${audit.name}: ${stateOf(f)}`,
          Message: JSON.stringify(f),
        }),
      );
    }
    await deps.ddb.send(
      new PutCommand({ TableName: deps.table, Item: { ...key, state: stateOf(f), finding: f } }),
    );
  }
}
