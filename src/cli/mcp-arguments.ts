import { ArgumentError, parseCommandLine, type OptionSpecs } from "../shared/command-line";

export interface McpArguments {
	vault?: string;
	privateFolders: string[];
	privateTags: string[];
	debug: boolean;
	help: boolean;
}

export const MCP_USAGE = `Usage: claude-code-bridge mcp --vault DIR [--private-folder F]... [--private-tag T]... [--debug]

An MCP server on stdin/stdout with Claude's vault tools for the vault in DIR. When Obsidian (with Claude Code
Bridge) or \`claude-code-bridge serve\` runs for that vault, every call goes through it; otherwise read tools
answer from the folder and write tools are refused. Privacy: the plugin's private folders and tags (from
<config folder>/plugins/claude-code-bridge/data.json, every config folder of the vault combined), Obsidian's
excluded files when the plugin treats them as private, and hidden folders always apply; these options add more.
Settings that cannot be read hide every note. A running bridge is used only if it hides at least as much.

  --vault DIR           the vault folder (required)
  --private-folder F    also keep this vault folder out of every answer (repeatable)
  --private-tag T       also keep notes with this tag out of every answer (repeatable)
  --debug               more log lines on stderr

Add it to Claude Code, in the vault folder (scope local: yours, for this folder only):
  claude mcp add --scope local obsidian -- claude-code-bridge mcp --vault "$PWD"`;

const OPTIONS = {
	vault: { kind: "text" },
	"private-folder": { kind: "texts" },
	"private-tag": { kind: "texts" },
	debug: { kind: "flag" },
	help: { kind: "flag", short: "h" },
} as const satisfies OptionSpecs;

export function parseMcpArguments(argv: readonly string[]): McpArguments {
	const options = parseCommandLine(argv, OPTIONS);
	const parsed: McpArguments = {
		privateFolders: options["private-folder"],
		privateTags: options["private-tag"],
		debug: options.debug,
		help: options.help,
	};
	if (options.vault !== undefined) parsed.vault = options.vault;
	if (!parsed.help && parsed.vault === undefined)
		throw new ArgumentError("--vault DIR is required: the vault folder whose notes the tools serve");
	return parsed;
}
