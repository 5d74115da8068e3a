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

export class ArgumentError extends Error {}

/** Parses the command line; a repeated option takes its last value (so `npm start -- --vault X` overrides the example vault). */
export function parseArguments(argv: readonly string[]): HeadlessArguments {
	const parsed: HeadlessArguments = { trace: false, debug: false, help: false, privateFolders: [], privateTags: [] };
	for (let i = 0; i < argv.length; i++) {
		const argument = argv[i];
		switch (argument) {
			case "--vault":
				parsed.vault = valueAfter(argv, i++, argument);
				break;
			case "--port":
				parsed.port = portAfter(argv, i++, argument);
				break;
			case "--mcp-port":
				parsed.mcpPort = portAfter(argv, i++, argument);
				break;
			case "--private-folder":
				parsed.privateFolders.push(valueAfter(argv, i++, argument));
				break;
			case "--private-tag":
				parsed.privateTags.push(valueAfter(argv, i++, argument));
				break;
			case "--trace":
				parsed.trace = true;
				break;
			case "--debug":
				parsed.debug = true;
				break;
			case "--help":
			case "-h":
				parsed.help = true;
				break;
			default:
				throw new ArgumentError(`Unknown argument: ${argument}`);
		}
	}
	if (!parsed.help && parsed.vault === undefined) throw new ArgumentError("--vault DIR is required: the folder to serve as a vault");
	return parsed;
}

/** The port after an option (`--port N`): a whole number from 1 to 65535, else an ArgumentError. */
export function portAfter(argv: readonly string[], index: number, name: string): number {
	const value = valueAfter(argv, index, name);
	const port = Number(value);
	if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ArgumentError(`${name} must be a whole number from 1 to 65535, not "${value}"`);
	return port;
}

/** The value after an option (`--vault DIR`); another option, an empty value or the end is an ArgumentError. */
export function valueAfter(argv: readonly string[], index: number, name: string): string {
	const value = argv[index + 1];
	if (value === undefined || value.trim() === "" || value.startsWith("--")) throw new ArgumentError(`${name} needs a value`);
	return value;
}
