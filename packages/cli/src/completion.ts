import type { Command } from "./command.ts";
import { takes } from "./command-line.ts";

/** The shells `fleet-auditor completion` writes a script for. */
export const SHELLS = ["bash", "zsh"] as const;

/** What to offer after a command line's first words: "" (no command yet), `runs`, `runs list`. */
interface Offer {
  /** Commands, subcommands or options. */
  words: readonly string[];
  /** The options that take a value: after one, the shell offers file names. */
  valued: readonly string[];
  /** Options, offered after a `-` only: otherwise an argument (a run ID, a file) is typed. */
  options?: true;
}

/** What to offer at each position, from the command table: its names, subcommands and options. */
function offers(commands: readonly Command[]): Map<string, Offer> {
  const names = commands.map((c) => c.name);
  const out = new Map<string, Offer>([
    ["", { words: [...names, "help", "--help", "--version"], valued: [] }],
    ["help", { words: names, valued: [] }],
  ]);
  for (const c of commands) {
    const optionsOf = (sub: string | undefined): Offer => {
      const entries = Object.entries(c.options).filter(
        ([n]) => sub === undefined || takes(c.takenBy, sub, n),
      );
      const spelled = ([n, o]: (typeof entries)[number]) => [`--${n}`, ...(o.short ? [`-${o.short}`] : [])];
      return {
        words: [...entries.map(([n]) => `--${n}`), "--help"],
        valued: entries.filter(([, o]) => o.type === "string").flatMap(spelled),
        options: true,
      };
    };
    if (!c.subcommands) out.set(c.name, optionsOf(undefined));
    else {
      out.set(c.name, { words: c.subcommands, valued: [] });
      for (const sub of c.subcommands) out.set(`${c.name} ${sub}`, optionsOf(sub));
    }
  }
  return out;
}

/**
 * The bash completion function: commands, then subcommands, then (after a `-`) the options the
 * subcommand takes; file names for an option's value and for arguments (`complete -o default`).
 */
function bashFunction(commands: readonly Command[]): string {
  const withSubs = commands.filter((c) => c.subcommands).map((c) => c.name);
  const cases = [...offers(commands)]
    .map(([key, { words, valued, options }]) => {
      const value = valued.length ? `; valued=" ${valued.join(" ")} "` : "";
      return `    "${key}") words="${words.join(" ")}"${value}${options ? "; options=1" : ""} ;;`;
    })
    .join("\n");
  return `_fleet_auditor() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" key="" words="" valued="" options=""
  if ((COMP_CWORD > 1)); then
    key="\${COMP_WORDS[1]}"
    case "$key" in
      ${withSubs.join("|")}) ((COMP_CWORD > 2)) && key="$key \${COMP_WORDS[2]}" ;;
    esac
  fi
  case "$key" in
${cases}
    *) return 0 ;;
  esac
  # An option's value, or an argument (a run ID, a file): left to the shell's file names.
  [[ $valued == *" $prev "* ]] && return 0
  [[ -n $options && $cur != -* ]] && return 0
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _fleet_auditor fleet-auditor
`;
}

/**
 * The completion script for `shell`, generated from the command table, so that it offers what the
 * CLI takes: commands, subcommands, and the options of each (only those the subcommand takes).
 * zsh runs the bash function through its `bashcompinit`, as the AWS CLI's completer does.
 *
 * @example completionScript("bash", COMMANDS) // `source <(fleet-auditor completion bash)`
 */
export function completionScript(shell: (typeof SHELLS)[number], commands: readonly Command[]): string {
  const how = `# fleet-auditor completion for ${shell}, from the CLI's command table (fleet-auditor completion ${shell}).
# This shell: source <(fleet-auditor completion ${shell})
# Every shell: add that line to ~/.${shell}rc${shell === "zsh" ? " (after compinit)" : ""}
`;
  const zsh = shell === "zsh" ? "autoload -U +X bashcompinit && bashcompinit\n" : "";
  return `${how}${zsh}${bashFunction(commands)}`;
}
