import { headersFileName, realPath } from "./http-token-record";

/**
 * The one way Claude Code is told about the vault tools, whoever says it (the settings tab's button and its command,
 * the README and docs/vault-tools.md, the doctor, the headless host's banner and `mcp-config`):
 *
 * - **one name**, `obsidian`: the model calls the tools `mcp__obsidian__<tool>`, the prompts are `/mcp__obsidian__…`;
 * - **one scope**, `local`: kept in the user's own Claude Code configuration (`~/.claude.json`), for the vault folder
 *   only. Nothing is written into the vault (which sync would copy to devices where the port and paths differ, and
 *   which anyone who can write to the vault could change), each vault keeps its own entry under the same name, and
 *   Claude Code started in any other folder does not see it. Project scope would put a `.mcp.json` into the vault;
 *   user scope would offer one vault's tools in every folder and leave room for one vault only under the name;
 * - **one way**, the HTTP endpoint Obsidian serves, with a `headersHelper` that prints the file the plugin keeps
 *   next to its token record (`cat` on macOS and Linux, `type` in `cmd.exe` on Windows, which is the shell Claude
 *   Code runs a helper in): no Node, no package, no script in the vault; no token in Claude Code's configuration.
 *
 * Measured with CLI 2.1.330: a local-scope `headersHelper` runs only in a folder whose trust dialog was accepted
 * (Claude Code says "headersHelper not run — this workspace has no persisted trust"): starting `claude` in the vault
 * once and accepting its question is enough. A second `claude mcp add-json` of the same name fails with
 * "already exists" and changes nothing.
 */
export const SERVER_NAME = "obsidian";
export const ADD_SCOPE = "local";

/** The scope in the user's words, for every place that shows the command. */
export const SCOPE_EXPLAINED =
	"local scope: kept in your own Claude Code configuration, for the vault folder only; nothing is written into the vault";

/** What the user must have done once for a local-scope helper to run (see above). */
export const TRUST_NEEDED =
	"Start Claude Code once in the vault folder and answer yes when it asks whether you trust the folder; until then Claude Code does not fetch the vault tools' key.";

/** The permission rule that lets every vault tool run without asking: `--allowedTools "mcp__obsidian"`. */
export const ALLOWED_TOOLS_RULE = `mcp__${SERVER_NAME}`;

/** Claude Code's configuration of the vault tools: no token in it, only where to read the current one. */
export interface HttpServerEntry {
	type: "http";
	url: string;
	headersHelper: string;
}

/** The endpoint's URL on the loopback interface. */
export function endpointUrl(port: number): string {
	return `http://127.0.0.1:${port}/mcp`;
}

/**
 * The `headersHelper`: prints the headers file of this port and vault. Claude Code runs it through the platform's
 * shell (`/bin/sh`; `cmd.exe` on Windows) with the user's environment, so `$HOME` / `%USERPROFILE%` name the same
 * folder the plugin wrote to, whatever characters the user's name has; the rest is plain ASCII.
 */
export function headersHelperCommand(port: number, vaultRealPath: string, platform: NodeJS.Platform): string {
	const file = headersFileName(port, vaultRealPath);
	return platform === "win32"
		? `type "%USERPROFILE%\\.claude-code-bridge\\mcp-tokens\\${file}"`
		: `cat "$HOME/.claude-code-bridge/mcp-tokens/${file}"`;
}

/** The entry for the vault at `vaultPath` (its real path names the headers file, as the endpoint writes it). */
export function serverEntry(port: number, vaultPath: string, platform: NodeJS.Platform): HttpServerEntry {
	return {
		type: "http",
		url: endpointUrl(port),
		headersHelper: headersHelperCommand(port, realPath(vaultPath), platform),
	};
}

/** `{"mcpServers":{"obsidian":{…}}}`: for `claude --mcp-config '<json>'` (one session). */
export function mcpConfigJson(entry: HttpServerEntry): string {
	return JSON.stringify({ mcpServers: { [SERVER_NAME]: entry } });
}

/** `claude mcp add-json --scope local obsidian <json>`, run in the vault folder (`claude mcp add` has no helper option). */
export function addArguments(entry: HttpServerEntry): string[] {
	return ["mcp", "add-json", "--scope", ADD_SCOPE, SERVER_NAME, JSON.stringify(entry)];
}

/** `claude mcp get obsidian`: the entry Claude Code uses in the vault folder, health-checked. */
export const GET_ARGUMENTS: readonly string[] = ["mcp", "get", SERVER_NAME];

/** `claude mcp remove obsidian --scope local`: only the entry this plugin adds. */
export const REMOVE_ARGUMENTS: readonly string[] = ["mcp", "remove", SERVER_NAME, "--scope", ADD_SCOPE];

/** The terminal a command is written for. */
export type TerminalShell = "posix" | "powershell" | "cmd";

/** The terminals of a platform, the usual one first: PowerShell and Command Prompt on Windows, a POSIX shell elsewhere. */
export function terminalsOf(platform: NodeJS.Platform): TerminalShell[] {
	return platform === "win32" ? ["powershell", "cmd"] : ["posix"];
}

export const TERMINAL_NAMES: Record<TerminalShell, string> = {
	posix: "Terminal",
	powershell: "PowerShell",
	cmd: "Command Prompt",
};

/** Characters `cmd.exe` acts on even inside double quotes (`%VAR%`, `!VAR!` with delayed expansion, the quote itself). */
const UNSAFE_IN_CMD_QUOTES = /["%!\r\n\0]/;

/**
 * One line for `shell` that goes to the vault folder and adds the vault tools, or undefined when the vault's path
 * cannot be written safely for that shell (the settings tab's button needs no shell at all).
 *
 * - POSIX: `cd "<vault>" && claude mcp add-json … '<json>'` (double quotes with `"\$\`` escaped; the JSON in single
 *   quotes, where nothing is special).
 * - PowerShell: `Set-Location -LiteralPath '<vault>'; '<json>' | claude mcp add-json … -`: single-quoted strings are
 *   literal (a `'` doubled); the JSON goes through stdin because Windows PowerShell 5.1 (and 7 before 7.3) drops
 *   the double quotes inside arguments of native programs.
 * - cmd.exe: `cd /d "<vault>" && claude mcp add-json … "<json>"` with the JSON quoted as Windows programs read their
 *   command line. cmd.exe ends its own quoting at each `"`, so the JSON holds no `&|<>^()` for it to act on; an
 *   interactive cmd.exe expands `%USERPROFILE%` even there, so it is written `%USERPROFILE:\=\\%`: cmd.exe puts
 *   in the user's folder with its backslashes doubled, and the JSON then holds that folder, which names the same file.
 */
export function terminalCommand(
	entry: HttpServerEntry,
	vaultPath: string,
	shell: TerminalShell,
	claude = "claude",
): string | undefined {
	const json = JSON.stringify(entry);
	const add = `${claude} mcp add-json --scope ${ADD_SCOPE} ${SERVER_NAME}`;
	switch (shell) {
		case "posix":
			return `cd ${posixWord(vaultPath)} && ${add} '${json.replace(/'/g, "'\\''")}'`;
		case "powershell":
			return `Set-Location -LiteralPath ${powershellWord(vaultPath)}; ${powershellWord(json)} | ${add} -`;
		case "cmd":
			if (UNSAFE_IN_CMD_QUOTES.test(vaultPath) || /[&|<>^()]/.test(json)) return undefined;
			// cmd.exe expands %USERPROFILE% wherever it stands; written %USERPROFILE:\=\\% it expands with every `\`
			// doubled, as the JSON around it needs.
			return `cd /d "${vaultPath}" && ${add} ${windowsProgramWord(json).replace(/%USERPROFILE%/g, "%USERPROFILE:\\=\\\\%")}`;
	}
}

/**
 * The developers' way (a clone with `npm link`, or the headless host's `mcp-config stdio`): the package's stdio server
 * `program… mcp --vault <vault>` under the same name and scope, for a POSIX shell or PowerShell. It needs Node and the
 * package; it replaces the entry above (`claude mcp remove obsidian -s local` first).
 */
export function stdioTerminalCommand(
	program: readonly string[],
	serverArgs: readonly string[],
	vaultPath: string,
	shell: Exclude<TerminalShell, "cmd">,
): string {
	const word = (text: string): string =>
		/^[\w./:=@-]+$/.test(text) ? text : shell === "posix" ? posixWord(text) : powershellWord(text);
	const add = `claude mcp add --scope ${ADD_SCOPE} ${SERVER_NAME} -- ${[...program, ...serverArgs].map(word).join(" ")}`;
	return shell === "posix"
		? `cd ${posixWord(vaultPath)} && ${add}`
		: `Set-Location -LiteralPath ${powershellWord(vaultPath)}; ${add}`;
}

/**
 * One argument as a Windows program reads its command line (the C runtime's rules): in double quotes, a `"` written
 * `\"`, and the backslashes just before a `"` (or the closing one) doubled; every other backslash stays single.
 */
export function windowsProgramWord(word: string): string {
	const escaped = word.replace(/(\\*)("|$)/g, (_all, slashes: string, end: string) =>
		end === '"' ? `${slashes}${slashes}\\"` : `${slashes}${slashes}`,
	);
	return `"${escaped}"`;
}

/** One word for a POSIX shell: double quotes with `"`, `\`, `$` and `` ` `` escaped. */
export function posixWord(word: string): string {
	return `"${word.replace(/["\\$`]/g, (c) => `\\${c}`)}"`;
}

/** One word for PowerShell: single quotes, nothing inside expanded, `'` (and its typographic twins) doubled. */
export function powershellWord(word: string): string {
	return `'${word.replace(/['\u2018\u2019\u201a\u201b]/g, (c) => c + c)}'`;
}

/** What `claude mcp get obsidian` said, in the settings tab's terms. */
export type ClaudeMcpState =
	/** Claude Code has no `obsidian` server for the vault folder. */
	| { kind: "absent" }
	| {
			kind: "present";
			/** Claude Code's own words: "Local config (private to you in this project)", "User config …", … */
			scope: string;
			/** Whether it is the entry this plugin adds: local scope, HTTP, this URL. */
			ours: boolean;
			connected: boolean;
			/** Claude Code's reason when it is not connected, or a headers helper it did not run. */
			issue?: string;
			/** The helper was not run because the vault folder was never trusted in Claude Code. */
			trustMissing: boolean;
			url?: string;
	  }
	/** Claude Code could not be run, or said something we do not understand. */
	| { kind: "unknown"; message: string };

export interface ClaudeRun {
	exitCode: number | null;
	stdout: string;
	stderr: string;
	/** Why Claude Code could not be run at all (not found, refused, timed out). */
	failure?: string;
}

/** Reads the answer of `claude mcp get obsidian` (CLI 2.1.330's wording) against the URL this vault's entry has. */
export function parseMcpGet(run: ClaudeRun, expectedUrl: string): ClaudeMcpState {
	if (run.failure !== undefined) return { kind: "unknown", message: run.failure };
	const text = `${run.stdout}\n${run.stderr}`;
	if (/No MCP server (named|found)/i.test(text)) return { kind: "absent" };
	const field = (name: string): string | undefined =>
		new RegExp(`^\\s*${name}:\\s*(.+)$`, "m").exec(run.stdout)?.[1]?.trim();
	const scope = field("Scope");
	const status = field("Status");
	if (run.exitCode !== 0 || scope === undefined || status === undefined)
		return { kind: "unknown", message: firstLine(text) ?? `claude exited with code ${String(run.exitCode)}` };
	const url = field("URL");
	const type = field("Type");
	const trustMissing = /headersHelper not run/.test(text) && /trust/.test(text);
	const connected = /connected/i.test(status) && !/fail|not|pending/i.test(status);
	const issue = field("Issue");
	return {
		kind: "present",
		scope,
		ours: /^local/i.test(scope) && type === "http" && url === expectedUrl,
		connected,
		...(issue !== undefined && { issue }),
		trustMissing,
		...(url !== undefined && { url }),
	};
}

function firstLine(text: string): string | undefined {
	return text
		.split(/\r?\n/)
		.map((line) => line.trim())
		.find((line) => line !== "");
}

/** Runs Claude Code with these arguments in the vault folder (the settings tab: the user's own `claude`). */
export type ClaudeRunner = (args: readonly string[]) => Promise<ClaudeRun>;

/** What the button did, for the settings tab to say. */
export interface ConnectOutcome {
	/** "added", "updated" (an older or different local entry replaced), "already" (the same entry was there). */
	change: "added" | "updated" | "already" | "failed";
	message?: string;
	state: ClaudeMcpState;
}

/**
 * The settings tab's "Connect to Claude Code": looks at what Claude Code has (`mcp get`), adds the entry (or
 * replaces a local one that differs, or one it cannot compare), then looks again. A second run changes nothing
 * that matters: the same entry is written again.
 */
export async function connectVaultTools(run: ClaudeRunner, entry: HttpServerEntry): Promise<ConnectOutcome> {
	const before = parseMcpGet(await run(GET_ARGUMENTS), entry.url);
	if (before.kind === "unknown") return { change: "failed", message: before.message, state: before };
	let change: ConnectOutcome["change"] = "added";
	if (before.kind === "present" && /^local/i.test(before.scope)) {
		// `mcp get` shows no helper: the entry is written again, so that a changed helper is never left behind.
		const removed = await run(REMOVE_ARGUMENTS);
		if (removed.failure !== undefined || removed.exitCode !== 0)
			return {
				change: "failed",
				message: removed.failure ?? firstLine(removed.stderr + removed.stdout),
				state: before,
			};
		change = before.ours ? "already" : "updated";
	}
	const added = await run(addArguments(entry));
	if (added.failure !== undefined || added.exitCode !== 0) {
		const message = added.failure ?? firstLine(`${added.stderr}\n${added.stdout}`) ?? "claude mcp add-json failed";
		return { change: "failed", message, state: parseMcpGet(await run(GET_ARGUMENTS), entry.url) };
	}
	return { change, state: parseMcpGet(await run(GET_ARGUMENTS), entry.url) };
}

/** The settings tab's "Remove": takes out the local entry (Claude Code's other scopes are the user's own). */
export async function removeVaultTools(run: ClaudeRunner, expectedUrl: string): Promise<ClaudeMcpState> {
	const removed = await run(REMOVE_ARGUMENTS);
	if (removed.failure !== undefined) return { kind: "unknown", message: removed.failure };
	return parseMcpGet(await run(GET_ARGUMENTS), expectedUrl);
}
