export * from "./args.ts";
export { explainAwsError } from "./aws-errors.ts";
export { COMMANDS, cliVersion, runCli } from "./cli.ts";
export { runDemo } from "./demo.ts";
export * from "./errors.ts";
export { EXIT_CODES_HELP } from "./exit-codes.ts";
export { LINKED_VARIABLES, withLinkedResources } from "./linked-resources.ts";
export { parseOutput } from "./output.ts";
export { toYaml } from "./yaml.ts";
