export { FleetAuditorError } from "./fleet-auditor-error.ts";
