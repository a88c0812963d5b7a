import { ConfigError } from "@fleet-auditor/use-cases";

// `npx sst shell --stage prod -- npx fleet-auditor …` runs the CLI with every linkable resource
// of the stage as an environment variable `SST_RESOURCE_<Name>` holding its link properties as
// JSON (sst/sst cmd/sst/shell.go; the SDK's `Resource` reads the same variables). This is the
// one place the CLI reads them. It reads the variables it is given instead of importing `sst`'s
// `Resource`, which reads `process.env` once per process, so that `runCli` stays testable with
// the variables of each call.

/**
 * Variables that go together: one set by hand keeps SST from filling any other of its group, so
 * that a table of one's own is never paired with the stage's topic, nor a `KEB_TOKEN` of one's
 * own overridden by the stage's client credentials (which the KEB connection would prefer).
 */
const GROUPS = {
  audit: ["AUDIT_TABLE", "ALERT_TOPIC_ARN", "CRITICAL_TOPIC_ARN", "INCIDENT_TOPIC_ARN"],
  status: ["STATUS_TABLE"],
  kebUrl: ["KEB_URL"],
  kebAuth: [
    "KEB_TOKEN",
    "KEB_TOKEN_URL",
    "KEB_CLIENT_ID",
    "KEB_CLIENT_SECRET",
    "KEB_CLIENT_SECRET_ARN",
    "KEB_USERNAME",
    "KEB_PASSWORD",
    "KEB_PASSWORD_ARN",
  ],
  landscape: ["LANDSCAPE"],
} as const;

/**
 * Which variable each linked resource of sst.config.ts stands in for, the link property it
 * takes (tables by `name`, topics by `arn`, linked secrets by `value`, the Secrets Manager
 * secret's ARN by `arn`, the landscape by `name`),
 * and the group of variables it belongs to.
 */
export const LINKED_VARIABLES = {
  AUDIT_TABLE: { resource: "AuditTable", property: "name", group: "audit" },
  ALERT_TOPIC_ARN: { resource: "Alerts", property: "arn", group: "audit" },
  CRITICAL_TOPIC_ARN: { resource: "Critical", property: "arn", group: "audit" },
  INCIDENT_TOPIC_ARN: { resource: "Incidents", property: "arn", group: "audit" },
  STATUS_TABLE: { resource: "ApplicationStatus", property: "name", group: "status" },
  KEB_URL: { resource: "KebUrl", property: "value", group: "kebUrl" },
  KEB_TOKEN_URL: { resource: "KebTokenUrl", property: "value", group: "kebAuth" },
  KEB_CLIENT_ID: { resource: "KebClientId", property: "value", group: "kebAuth" },
  // The client secret itself stays in Secrets Manager: the shell gets where it is, not what it is.
  KEB_CLIENT_SECRET_ARN: { resource: "KebClientSecretArn", property: "arn", group: "kebAuth" },
  // As the deployed functions have it: stages.json's `landscape`, else the stage's name.
  LANDSCAPE: { resource: "Landscape", property: "name", group: "landscape" },
} as const satisfies Record<string, { resource: string; property: string; group: keyof typeof GROUPS }>;

/** The variables with the linked resources filled in, and which of them came from SST. */
export interface LinkedVariables {
  vars: Readonly<Record<string, string | undefined>>;
  /** Variables taken from `SST_RESOURCE_*`, in `LINKED_VARIABLES` order. */
  linked: string[];
}

/**
 * Fills each variable of `LINKED_VARIABLES` from its `SST_RESOURCE_<Name>` variable unless a
 * variable of its group is set (even empty, which means unset to the CLI): what an operator sets
 * wins, so one part can point elsewhere inside `sst shell`. A linked resource that is not JSON
 * or lacks its property fails naming the `SST_RESOURCE_` variable, never echoing its value.
 */
export function withLinkedResources(vars: Readonly<Record<string, string | undefined>>): LinkedVariables {
  const out: Record<string, string | undefined> = { ...vars };
  const linked: string[] = [];
  for (const [variable, { resource, property, group }] of Object.entries(LINKED_VARIABLES)) {
    const raw = vars[`SST_RESOURCE_${resource}`];
    if (GROUPS[group].some((v) => vars[v] !== undefined) || raw === undefined || raw === "") continue;
    const value = propertyOf(raw, property);
    if (value === undefined) {
      throw new ConfigError([
        {
          path: `SST_RESOURCE_${resource}`,
          message: `expected JSON with a string "${property}" (as sst shell sets it), for ${variable}`,
        },
      ]);
    }
    out[variable] = value;
    linked.push(variable);
  }
  return { vars: out, linked };
}

function propertyOf(raw: string, property: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(raw);
    const value =
      parsed !== null && typeof parsed === "object" && Object.hasOwn(parsed, property)
        ? (parsed as Record<string, unknown>)[property]
        : undefined;
    return typeof value === "string" && value !== "" ? value : undefined;
  } catch {
    return undefined;
  }
}
