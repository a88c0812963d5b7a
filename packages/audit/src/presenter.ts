import type { CommandStore } from "./commands.ts";
import type { Finding } from "./finding.ts";
import type { Transition } from "./snapshot.ts";

// How an audit's findings read in messages. The engine and the channels know findings only as
// keys, labels and summaries; everything a source adds (a KEB runtime's failing operation, an
// edge Application's status) reaches a message through its presenter, and nowhere else.

/** A structured detail of a finding, as channels list it: "description: quota exceeded". */
export interface AlertDetail {
  readonly name: string;
  readonly value: string;
}

/** Turns an audit's findings into the words of its messages. */
export interface Presenter {
  /** The label a group tallies its members by, and what the tally is called: `plan` → "plans". */
  readonly tally: { readonly label: string; readonly word: string };
  /** What a group's members are, for "25 runtimes failed": may depend on the group's state. */
  noun(state: string): string;
  /** The words before a group's place in Slack ("in eu-1", "on node edge-1"). */
  readonly placeWord: string;
  /**
   * The label that says where a finding is (`region`, `node`; "" for none): a title of an incident
   * whose `groupBy` leaves it out counts its places ("in 33 regions").
   */
  readonly placeLabel: string;
  /** A member of a collapsed group, as its examples name it. */
  example(f: Finding): string;
  /** The e-mail's lines for one transition, without its links and commands. */
  lines(t: Transition, at: string, brief: boolean): string[];
  /** A line under a collapsed group's examples (what the first member says), if any. */
  groupNote(f: Finding): string | undefined;
  /**
   * What a title calls this one finding when a message tells it alone: its state and reason
   * first, then where it is (`failed (err_x) shoot c-1 in eu-1`), without the transition's kind
   * (the title's news says it).
   */
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
  /** Name/value pairs a pager's details and a chat's fields list (KEB: description, shoot, region, instance). */
  details(f: Finding): AlertDetail[];
  /**
   * What the structured digest v1 says of the finding beside its labels, and of a group of them:
   * the fields v1 was published with, for the programs that read them. Written into the digest
   * only; nothing of this product reads them back (channels read the row, `alert-row.ts`).
   */
  readonly digestV1: DigestV1Fields;
}

/**
 * The source's fields of the structured digest v1 (`fleet-auditor.digest/v1`), which programs
 * read: a KEB runtime's `instanceID`, `shootName`, `operation`, …; an edge finding's `edge`.
 *
 * @deprecated for anything but writing digest v1: the runtime-shaped form of the model before
 * labels. It goes with digest v1.
 */
interface DigestV1Fields {
  /** A transition row's source fields, in v1's order (`instanceID` … `provider`, then the rest). */
  row(f: Finding): DigestV1Row;
  /** What a group of these findings carries besides its counts (`edge: true`). */
  readonly group: { readonly edge?: true };
}

/** A finding's fields in a digest v1 transition row. */
export interface DigestV1Row {
  instanceID: string;
  runtimeID: string;
  shootName: string;
  globalAccountID: string;
  subAccountID: string;
  plan: string;
  region: string;
  provider: string;
  expiredAt?: string;
  operation?: unknown;
  edge?: unknown;
}
