/** An operation row as KEB stores it (the wire form has no `type`; this one does). */
export interface SimOperation {
  id: string;
  type: "provision" | "deprovision" | "update" | "upgradeCluster";
  /** Deprovision with temporary=true is a suspension; a later provision is an unsuspension. */
  temporary: boolean;
  state: "succeeded" | "failed" | "in progress" | "pending" | "canceled" | "retrying" | "canceling";
  description: string;
  createdAt: string;
  updatedAt: string;
  finishedStages: string[] | null;
  executedButNotCompletedSteps?: string[];
  error?: { message: string; reason: string; component: string; step: string };
}

/** A row of KEB's `instances` table, with its operations. */
export interface SimInstance {
  instanceID: string;
  runtimeID: string;
  globalAccountID: string;
  subscriptionGlobalAccountID: string;
  subAccountID: string;
  region: string;
  subAccountRegion: string;
  shootName: string;
  servicePlanID: string;
  servicePlanName: string;
  provider: string;
  userID: string;
  parameters: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  expiredAt?: string;
  /** Set when deprovisioning ran but left steps (`deprovisionincomplete`). */
  deletedAt?: string;
  /** `ers_context.active`; false for suspended runtimes. */
  active: boolean;
  /** Counted only (KEB's `emptyUpdates`): updates that changed nothing. */
  emptyUpdates: number;
  operations: SimOperation[];
}

/** A row of `instances_archived`: what is left of a fully deprovisioned runtime. */
export interface SimArchivedInstance {
  instanceID: string;
  lastRuntimeID: string;
  globalAccountID: string;
  subAccountID: string;
  subAccountRegion: string;
  region: string;
  shootName: string;
  servicePlanID: string;
  servicePlanName: string;
  provider: string;
  createdAt: string;
  provisioningStartedAt: string;
  provisioningFinishedAt: string;
  lastDeprovisioningFinishedAt: string;
}
