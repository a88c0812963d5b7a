import { displayedState, lastOperation, type Runtime } from "@fleet-auditor/keb";

/** Columns of the runtime table, after `kcp runtimes`. */
export const RUNTIME_HEADERS = [
  "GLOBALACCOUNT ID",
  "SUBACCOUNT ID",
  "SHOOT",
  "REGION",
  "PLAN",
  "CREATED AT",
  "STATE",
];

/** One table row; `failed` and `error` carry the last operation's kind, as `kcp` prints them. */
export function runtimeRow(runtime: Runtime): string[] {
  const state = runtime.status.state || displayedState(runtime.status);
  const kind = lastOperation(runtime.status)?.kind;
  const shown = (state === "failed" || state === "error") && kind ? `${state} (${kind})` : state || "-";
  return [
    runtime.globalAccountID,
    runtime.subAccountID,
    runtime.shootName || "-",
    runtime.region || "-",
    runtime.servicePlanName,
    runtime.status.createdAt.slice(0, 19).replace("T", " ").replace(/-/g, "/"),
    shown,
  ];
}
