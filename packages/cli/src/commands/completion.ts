import { subcommand } from "../args.ts";
import type { Command } from "../command.ts";
import { parseCommandLine } from "../command-line.ts";
import { completionScript, SHELLS } from "../completion.ts";
import { EXIT } from "../exit-codes.ts";

const USAGE = `usage: fleet-auditor completion ${SHELLS.join("|")}

Prints a script that completes fleet-auditor's commands, subcommands and options (those the
subcommand takes) as you type, generated from this version's command table.
  bash: source <(fleet-auditor completion bash)   (add it to ~/.bashrc to keep it)
  zsh:  source <(fleet-auditor completion zsh)    (add it to ~/.zshrc, after compinit)
exit codes: 0 printed; 1 bad input.
`;

/**
 * `fleet-auditor completion bash|zsh`. The table is passed in (`commands`), not imported: the
 * command table in cli.ts holds this command.
 */
export function completionCommand(commands: () => readonly Command[]): Command {
  return {
    name: "completion",
    summary: "print a shell completion script: bash, zsh",
    usage: USAGE,
    subcommands: SHELLS,
    options: {},
    async run(argv, { io }) {
      const [given, ...rest] = argv;
      const shell = subcommand("completion", given, SHELLS);
      parseCommandLine(rest, {});
      io.stdout.write(completionScript(shell, commands()));
      return EXIT.done;
    },
  };
}
