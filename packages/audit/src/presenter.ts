import type { CommandStore } from "./commands.ts";
import type { Finding } from "./finding.ts";
import type { Transition } from "./snapshot.ts";

// How an audit's findings read in messages. The engine and the channels know findings only as
// keys, labels and summaries; everything a source adds (a KEB runtime's failing operation, an
// edge Application's status) reaches a message through its presenter, and nowhere else.

/** What a finding was, in the flat form of the structured digest v1 and of records before labels. */
export interface FlatFinding {
  instanceID: string;
  runtimeID: string;
  shootName: string;
  globalAccountID: string;
  subAccountID: string;
  plan: string;
  region: string;
  provider: string;
  state: string;
  severity: Finding["severity"];
  expiredAt?: string;
  operation?: unknown;
  edge?: unknown;
  /** Written since labels: the finding's labels (a reader of the flat form may ignore them). */
  labels?: Readonly<Record<string, string>>;
}

/** Turns an audit's findings into the words of its messages. */
export interface Presenter {
  /** The label a group tallies its members by, and what the tally is called: `plan` → "plans". */
  readonly tally: { readonly label: string; readonly word: string };
  /** What a group's members are, for "25 runtimes failed": may depend on the group's state. */
  noun(state: string): string;
  /** The words before a group's place in Slack ("in eu-1", "on node edge-1"). */
  readonly placeWord: string;
  /** A member of a collapsed group, as its examples name it. */
  example(f: Finding): string;
  /** The e-mail's lines for one transition, without its links and commands. */
  lines(t: Transition, at: string, brief: boolean): string[];
  /** A line under a collapsed group's examples (what the first member says), if any. */
  groupNote(f: Finding): string | undefined;
  /** The subject's words for a message of this one transition. */
  subject(t: Transition, state: string, reason: string): string;
  /** What chat lists say after a member's name: its failing operation, its status. */
  chatNote(f: Finding, since: string): string | undefined;
  /**
   * The command that shows what the finding is about, acting on `store` when it is one of ours
   * (`inStore`), or undefined when none can be pasted.
   */
  inspect(f: Finding, store: CommandStore): string | undefined;
  /** What makes two findings the same problem: a change here is a `changed` transition. */
  problemKey(f: Finding): string;
  /** Link template values beyond the labels (names templates used before labels). */
  linkValues(f: Finding): Readonly<Record<string, string | undefined>>;
  /** The finding as the structured digest v1 and stored records before labels spelled it. */
  flat(f: Finding): FlatFinding;
  /** A finding back from that form; undefined when it is not one of this presenter's. */
  fromFlat(flat: FlatFinding): Finding | undefined;
  /** The label the flat form's `region` holds (silences of a digest v1 group match it). */
  readonly flatPlace: string;
  /** What a digest v1 group of these findings carries besides its counts (`edge: true`). */
  readonly v1GroupMark: { readonly edge?: true };
}
