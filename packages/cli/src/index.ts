export * from "./args.ts";
export { COMMANDS, cliVersion, runCli } from "./cli.ts";
export type { Command, CommandContext, Io } from "./command.ts";
export { runDemo } from "./demo.ts";
export * from "./errors.ts";
