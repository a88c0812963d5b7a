import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Recording stand-ins of the `sst` and `aws` globals that sst.config.ts uses, so that its `run()`
// can be executed offline and what it declares inspected. Outputs are plain strings shaped like
// what AWS gives (ARNs, names, URLs), so that config schemas can parse them.

const ACCOUNT = "123456789012";
const REGION = "eu-central-1";

/** One declared resource: its kind, name and arguments as the config passed them. */
export interface Declared {
  kind: string;
  name: string;
  args: Record<string, unknown>;
  /** The resource options (Pulumi's third argument): its `provider`, when not the stage's. */
  opts?: Record<string, unknown>;
  /** For a function declared through `subscribe`: what it subscribes to, and how. */
  subscribedTo?: { kind: string; name: string; options?: Record<string, unknown> };
}

/** What `run()` declared, and what it returned. */
export interface Recording {
  stage: string;
  app: Record<string, unknown>;
  declared: Declared[];
  outputs: Record<string, unknown>;
  /** The declared resources of a kind. */
  of(kind: string): Declared[];
  /** The one declared resource of a kind and name; throws when there is none. */
  named(kind: string, name: string): Declared;
}

/** How to run the config: the deployer's variables, and stage settings instead of stages.json. */
export interface RecordOptions {
  env?: Record<string, string | undefined>;
  /**
   * A stages file's content (written to a temporary file); `"committed"`: the committed
   * stages.json; not given: `LANDSCAPE_STAGES`, the committed stages as a landscape's operators
   * fill them in (subscribers named, `prod`, `production` and `staging` scheduled).
   */
  stages?: unknown;
}

/** The subscribers a scheduled or protected stage must name (stages.json refuses one without). */
export const TELLS = { opsEmail: "ops@example.com", alertEmails: [{ address: "team@example.com" }] };

/** A landscape's stages.json as its operators fill it in (test/fixtures/stages/landscape.json). */
const LANDSCAPE_STAGES_FILE = new URL("../fixtures/stages/landscape.json", import.meta.url).pathname;

/**
 * Runs sst.config.ts's `app()` and `run()` for a stage, recording every declaration, with the
 * landscape's stages (`LANDSCAPE_STAGES_FILE`), the committed stages.json or the `stages` given.
 */
export async function recordSstConfig(stage: string, options: RecordOptions = {}): Promise<Recording> {
  const given = options.stages !== undefined && options.stages !== "committed";
  const dir = given ? mkdtempSync(join(tmpdir(), "fleet-auditor-stages-")) : undefined;
  const env = { ...options.env };
  if (options.stages === undefined) env.FLEET_AUDITOR_STAGES_FILE = LANDSCAPE_STAGES_FILE;
  if (options.stages === "committed") env.FLEET_AUDITOR_STAGES_FILE = undefined;
  if (dir) {
    env.FLEET_AUDITOR_STAGES_FILE = join(dir, "stages.json");
    writeFileSync(env.FLEET_AUDITOR_STAGES_FILE, JSON.stringify(options.stages));
  }
  const declared: Declared[] = [];
  const g = globalThis as Record<string, unknown>;
  const saved = Object.fromEntries(
    ["$config", "$app", "sst", "aws", "$interpolate", "$jsonStringify", "$transform"].map((k) => [k, g[k]]),
  );
  // `$transform(sst.aws.Function, fn)`: applied to every function, subscribers included.
  const functionTransforms: Array<(args: Record<string, unknown>) => void> = [];
  const savedEnv = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));

  const fn = (
    kind: string,
    name: string,
    args: Record<string, unknown>,
    subscribedTo?: Declared["subscribedTo"],
  ) => {
    for (const t of functionTransforms) t(args);
    declared.push({ kind, name, args, ...(subscribedTo ? { subscribedTo } : {}) });
    return {
      name: `${$app()}-${name}`,
      arn: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${$app()}-${name}`,
      // A function URL's endpoint, as Lambda makes one, when the function asks for it.
      ...(args.url ? { url: `https://${name.toLowerCase()}-url-id.lambda-url.${REGION}.on.aws/` } : {}),
    };
  };
  const $app = () => `fleet-auditor-${stage}`;
  const resource = (
    kind: string,
    outputs: (name: string, args: Record<string, unknown>) => Record<string, unknown>,
  ) =>
    class {
      [key: string]: unknown;
      constructor(name: string, args: Record<string, unknown> = {}, opts?: Record<string, unknown>) {
        declared.push({ kind, name, args, ...(opts ? { opts } : {}) });
        Object.assign(this, outputs(name, args));
      }
    };
  const queueOutputs = (name: string) => ({
    arn: `arn:aws:sqs:${REGION}:${ACCOUNT}:${$app()}-${name}`,
    url: `https://sqs.${REGION}.amazonaws.com/${ACCOUNT}/${$app()}-${name}`,
    nodes: { queue: { name: `${$app()}-${name}` } },
    subscribe: (subscriber: Record<string, unknown>, options?: Record<string, unknown>) => ({
      nodes: {
        function: fn("sst.aws.Function", `${name}Subscriber`, subscriber, {
          kind: "sst.aws.Queue",
          name,
          options,
        }),
      },
    }),
  });
  const topicOutputs = (name: string) => ({
    arn: `arn:aws:sns:${REGION}:${ACCOUNT}:${$app()}-${name}`,
    name: `${$app()}-${name}`,
    subscribe: (subscriber: string, args: Record<string, unknown>, options?: Record<string, unknown>) => ({
      nodes: {
        function: fn("sst.aws.Function", subscriber, args, { kind: "sst.aws.SnsTopic", name, options }),
      },
    }),
  });

  g.$config = (c: unknown) => c;
  g.$transform = (target: unknown, transform: (args: Record<string, unknown>) => void) => {
    if (target === (g.sst as { aws: { Function: unknown } }).aws.Function) functionTransforms.push(transform);
  };
  g.$app = { name: "fleet-auditor", stage };
  g.$jsonStringify = (value: unknown) => JSON.stringify(value);
  g.$interpolate = (strings: TemplateStringsArray, ...values: unknown[]) =>
    strings.reduce((out, s, i) => out + s + (i < values.length ? String(values[i]) : ""), "");
  g.sst = {
    Secret: resource("sst.Secret", (name) => ({ value: `secret:${name}` })),
    Linkable: resource("sst.Linkable", () => ({})),
    aws: {
      Dynamo: resource("sst.aws.Dynamo", (name) => ({
        name: `${$app()}-${name}`,
        arn: `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${$app()}-${name}`,
      })),
      SnsTopic: resource("sst.aws.SnsTopic", topicOutputs),
      Queue: resource("sst.aws.Queue", queueOutputs),
      Function: class {
        [key: string]: unknown;
        constructor(name: string, args: Record<string, unknown>) {
          Object.assign(this, fn("sst.aws.Function", name, args));
          // A function URL (`url`), shaped as Lambda gives one.
          if (args.url) this.url = `https://${name.toLowerCase()}-url-id.lambda-url.${REGION}.on.aws/`;
        }
      },
      CronV2: resource("sst.aws.CronV2", () => ({})),
    },
  };
  g.aws = {
    // A provider of its own (another region): its arguments are what a resource's `provider` shows.
    Provider: resource("aws.Provider", (_name, args) => ({ ...args })),
    sns: { TopicSubscription: resource("aws.sns.TopicSubscription", () => ({})) },
    cloudwatch: {
      MetricAlarm: resource("aws.cloudwatch.MetricAlarm", () => ({})),
      Dashboard: resource("aws.cloudwatch.Dashboard", () => ({})),
    },
    kms: {
      Key: resource("aws.kms.Key", (name) => ({
        arn: `arn:aws:kms:${REGION}:${ACCOUNT}:key/${name}`,
        keyId: name,
      })),
    },
    getCallerIdentityOutput: () => ({ accountId: ACCOUNT }),
    getPartitionOutput: () => ({ partition: "aws" }),
    iam: {
      Role: resource("aws.iam.Role", (name) => ({ arn: `arn:aws:iam::${ACCOUNT}:role/${$app()}-${name}` })),
    },
    chatbot: { SlackChannelConfiguration: resource("aws.chatbot.SlackChannelConfiguration", () => ({})) },
    // Secrets Manager adds six random characters to a secret's name in its ARN.
    secretsmanager: {
      Secret: class {
        [key: string]: unknown;
        constructor(name: string, args: Record<string, unknown> = {}) {
          declared.push({ kind: "aws.secretsmanager.Secret", name, args });
          const secretName = String(args.name ?? `${$app()}-${name}`);
          this.arn = `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${secretName}-AbC123`;
        }
      },
    },
  };

  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    // Not a literal specifier, so that the code's type check does not load SST's types: the
    // config has its own (tsconfig.sst.json, in `npm run typecheck`).
    const configModule = "../../sst.config.ts";
    const config = (await import(configModule)).default as unknown as {
      app(input: { stage: string }): Promise<Record<string, unknown>>;
      run(): Promise<Record<string, unknown>>;
    };
    const app = await config.app({ stage });
    const outputs = await config.run();
    return {
      stage,
      app,
      declared,
      outputs,
      of: (kind) => declared.filter((d) => d.kind === kind),
      named: (kind, name) => {
        const found = declared.find((d) => d.kind === kind && d.name === name);
        if (!found) throw new Error(`no ${kind} named ${name} was declared`);
        return found;
      },
    };
  } finally {
    for (const [k, v] of Object.entries(saved)) g[k] = v;
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/** An SST duration (`"30 seconds"`, `"3 minutes"`, `"1 hour"`) in seconds. */
export function seconds(duration: unknown): number {
  const m = /^(\d+) (second|minute|hour|day)s?$/.exec(String(duration));
  if (!m) throw new Error(`not an SST duration: ${String(duration)}`);
  const unit = { second: 1, minute: 60, hour: 3_600, day: 86_400 }[m[2] as "second"];
  return Number(m[1]) * unit;
}
