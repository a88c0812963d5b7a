export { type AuditRunDeps, type AuditRunResult, type RunLogger, runAudit } from "./run-audit.ts";
export {
  type AuditRunInput,
  AuditRunInputSchema,
  NarrowingFiltersSchema,
  parseRunInput,
  RunInputError,
} from "./run-input.ts";
