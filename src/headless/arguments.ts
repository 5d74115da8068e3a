import { ArgumentError, parseCommandLine, type OptionSpecs } from "../shared/command-line";

export interface HeadlessArguments {
	vault?: string;
	port?: number;
	/** The vault tools' HTTP port; default: derived from the vault path (the same on every start). */
	mcpPort?: number;
	trace: boolean;
	privateFolders: string[];
	privateTags: string[];
	debug: boolean;
	help: boolean;
}

export const USAGE = `Usage: claude-code-bridge serve --vault DIR [--port N] [--mcp-port N] [--private-folder F]... [--private-tag T]... [--trace] [--debug]

The headless bridge: serves the folder DIR to Claude Code's /ide as Obsidian with the plugin would, without the
Obsidian app, with Claude's vault tools over HTTP. It reads commands on stdin ("help" lists them); "quit" or Ctrl+C
stops it. In a clone of this repository, npm start -- --vault DIR builds and runs the same.

  --vault DIR           the folder to serve as a vault (required)
  --port N              listen on this port instead of a random free one
  --mcp-port N          the vault tools' MCP endpoint (http://127.0.0.1:N/mcp); default: a port from 23000-27999
                        derived from the vault's path, the same on every start
  --private-folder F    never broadcast or serve notes in this vault folder (repeatable)
  --private-tag T       never broadcast or serve notes with this tag (repeatable)
                        These add to the privacy settings of the Obsidian plugin found in the vault (private
                        folders and tags, and Obsidian's excluded files when the plugin treats them as private),
                        which always apply; settings that cannot be read hide every note.
  --trace               print every JSON-RPC message's method and id to stderr (never the contents)
  --debug               print debug logs to stderr

Environment:
  CLAUDE_CODE_BRIDGE_MCP_TOKEN   a fixed token for the vault tools' HTTP endpoint (32 characters or more, no spaces);
                                 without it the token is new at every start
  HOME                           where the lock file (~/.claude/ide) and the HTTP token record go

A bad option or environment value: one line on stderr, exit code 2, nothing started.`;

const OPTIONS = {
	vault: { kind: "text" },
	port: { kind: "port" },
	"mcp-port": { kind: "port" },
	"private-folder": { kind: "texts" },
	"private-tag": { kind: "texts" },
	trace: { kind: "flag" },
	debug: { kind: "flag" },
	help: { kind: "flag", short: "h" },
} as const satisfies OptionSpecs;

/** Parses the command line; a repeated option takes its last value (so `npm start -- --vault X` overrides the example vault). */
export function parseArguments(argv: readonly string[]): HeadlessArguments {
	const options = parseCommandLine(argv, OPTIONS);
	const parsed: HeadlessArguments = {
		trace: options.trace,
		debug: options.debug,
		help: options.help,
		privateFolders: options["private-folder"],
		privateTags: options["private-tag"],
	};
	if (options.vault !== undefined) parsed.vault = options.vault;
	if (options.port !== undefined) parsed.port = options.port;
	if (options["mcp-port"] !== undefined) parsed.mcpPort = options["mcp-port"];
	if (!parsed.help && parsed.vault === undefined)
		throw new ArgumentError("--vault DIR is required: the folder to serve as a vault");
	return parsed;
}
