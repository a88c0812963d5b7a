export * from "./args.ts";
export { COMMANDS, cliVersion, runCli } from "./cli.ts";
export type { Command, CommandContext, Io } from "./command.ts";
export { runDemo } from "./demo.ts";
export * from "./errors.ts";
export { EXIT, EXIT_CODES_HELP } from "./exit-codes.ts";
export { LINKED_VARIABLES, withLinkedResources } from "./linked-resources.ts";
export { DATA_FORMATS, type Output, outputOption, parseOutput } from "./output.ts";
export { toYaml } from "./yaml.ts";
