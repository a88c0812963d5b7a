export { applicationTraffic, type TrafficOptions } from "./application-traffic.ts";
export { PLANS, type Plan, SERVICE_CLASS } from "./catalog.ts";
export * from "./errors.ts";
export { type FaultAction, FaultPlan, type FaultRule } from "./faults.ts";
export { Fleet, type FleetChange, type MutationPlan } from "./fleet.ts";
export {
  DEFAULT_FLEET_NOW,
  type FlaggedScenario,
  type FleetOptions,
  generateFleet,
  type HealthyScenario,
} from "./fleet-generator.ts";
export { goTime } from "./go-time.ts";
export type { SimArchivedInstance, SimInstance, SimOperation } from "./model.ts";
export { filterOperation, instancePredicate, readFilters } from "./query.ts";
export { Random } from "./random.ts";
export { renderArchived, renderRuntime } from "./render.ts";
export { answerText, type HandlerAnswer, RuntimesHandler } from "./runtimes-handler.ts";
export { type KebSimulator, type SimulatorOptions, startKebSimulator } from "./server.ts";
export { SimAuth, type SimAuthOptions, type SimClient, type SimUser } from "./sim-auth.ts";
