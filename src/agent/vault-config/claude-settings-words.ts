/**
 * What a Claude Code settings file (`.claude/settings.json` and its local twin, keys as CLI 2.1.330 reads them)
 * would run or change if the CLI loaded it, one sentence per thing, in the words of someone who never heard of
 * hooks: the reader decides whether to trust it from these lines alone.
 */

/** What one line says the configuration would do; the review lists them under one heading per kind. */
export type ConfigItemKind = "runs" | "sends" | "allows" | "instructions" | "changes" | "unreadable";

export interface ConfigItem {
	kind: ConfigItemKind;
	/** One sentence, with commands and addresses quoted as written. */
	text: string;
	/** The vault-relative file it comes from. */
	file: string;
}

/** Settings that name a program the CLI runs for its own needs (the schema's "Path to a script that …"). */
const HELPERS: Readonly<Record<string, string>> = {
	apiKeyHelper: "to get the API key it sends with your messages",
	awsCredentialExport: "to get Amazon Web Services credentials",
	awsAuthRefresh: "to refresh the Amazon Web Services sign-in",
	gcpAuthRefresh: "to refresh the Google Cloud sign-in",
	otelHeadersHelper: "to get the headers of its usage reports",
	proxyAuthHelper: "to sign in to a proxy",
};

/** Settings whose `command` (when `type` is "command") is run to draw or suggest something. */
const COMMAND_SETTINGS: Readonly<Record<string, string>> = {
	statusLine: "to draw its status line",
	subagentStatusLine: "to draw the status line of its helper agents",
	fileSuggestion: "to suggest files",
};

const EVENTS: Readonly<Record<string, string>> = {
	SessionStart: "when a session starts, before you type anything",
	SessionEnd: "when a session ends",
	UserPromptSubmit: "each time you send a message",
	PreToolUse: "before Claude uses a tool",
	PostToolUse: "after Claude uses a tool",
	PostToolUseFailure: "after a tool fails",
	PermissionRequest: "when Claude asks for permission",
	Notification: "when Claude Code shows a notification",
	Stop: "when Claude finishes a reply",
	SubagentStart: "when a helper agent starts",
	SubagentStop: "when a helper agent finishes",
	PreCompact: "before a long conversation is summarised",
};

/** Environment variables that change where messages go, or make every program started load other code. */
const ADDRESS_VARIABLE = /(URL|ENDPOINT|HOST|PROXY)$/i;
const CODE_VARIABLES = new Set([
	"NODE_OPTIONS",
	"LD_PRELOAD",
	"LD_LIBRARY_PATH",
	"DYLD_INSERT_LIBRARIES",
	"BASH_ENV",
	"ENV",
	"PATH",
	"SHELL",
	"PYTHONSTARTUP",
	"PYTHONPATH",
	"PERL5OPT",
	"RUBYOPT",
	"CLAUDE_CODE_SHELL_PREFIX",
]);

/** Keys described elsewhere, or that only take something away (deny and ask rules). */
const DESCRIBED = new Set([
	"hooks",
	"env",
	"permissions",
	"enabledPlugins",
	"extraKnownMarketplaces",
	"enableAllProjectMcpServers",
	"enabledMcpjsonServers",
	"disabledMcpjsonServers",
	"$schema",
	...Object.keys(HELPERS),
	...Object.keys(COMMAND_SETTINGS),
]);

const QUOTE_LIMIT = 300;

/** A value quoted for the reader: shortened, on one line. */
export function quoted(value: string): string {
	const line = value.replace(/\s+/g, " ").trim();
	return `"${line.length > QUOTE_LIMIT ? `${line.slice(0, QUOTE_LIMIT)}…` : line}"`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Each thing a parsed settings file would run, send, allow or change. */
export function describeSettings(file: string, settings: Record<string, unknown>): ConfigItem[] {
	const items: ConfigItem[] = [];
	const add = (kind: ConfigItemKind, text: string): void => void items.push({ kind, text, file });
	describeHooks(settings["hooks"], add);
	for (const [key, purpose] of Object.entries(HELPERS)) {
		const command = settings[key];
		if (typeof command === "string" && command.trim() !== "") add("runs", `Runs ${quoted(command)} ${purpose}.`);
	}
	for (const [key, purpose] of Object.entries(COMMAND_SETTINGS)) {
		const setting = settings[key];
		if (isRecord(setting) && typeof setting["command"] === "string")
			add("runs", `Runs ${quoted(setting["command"])} ${purpose}.`);
	}
	describeEnv(settings["env"], add);
	describePermissions(settings["permissions"], add);
	if (isRecord(settings["enabledPlugins"])) {
		for (const [plugin, on] of Object.entries(settings["enabledPlugins"])) {
			if (on !== false)
				add(
					"runs",
					`Turns on the Claude Code plugin ${quoted(plugin)}; plugins can run programs of their own.`,
				);
		}
	}
	if (isRecord(settings["extraKnownMarketplaces"])) {
		for (const name of Object.keys(settings["extraKnownMarketplaces"]))
			add("changes", `Adds ${quoted(name)} to the places Claude Code installs plugins from.`);
	}
	if (settings["enableAllProjectMcpServers"] === true)
		add("runs", "Starts every tool server the vault's .mcp.json lists, without asking.");
	if (Array.isArray(settings["enabledMcpjsonServers"])) {
		const names = settings["enabledMcpjsonServers"].filter((name): name is string => typeof name === "string");
		if (names.length > 0)
			add(
				"runs",
				`Starts these tool servers of the vault's .mcp.json without asking: ${names.map(quoted).join(", ")}.`,
			);
	}
	const others = Object.keys(settings).filter((key) => !DESCRIBED.has(key));
	if (others.length > 0)
		add("changes", `Also sets: ${others.slice(0, 30).join(", ")}${others.length > 30 ? ", …" : ""}.`);
	return items;
}

type Add = (kind: ConfigItemKind, text: string) => void;

function describeHooks(hooks: unknown, add: Add): void {
	if (!isRecord(hooks)) return;
	for (const [event, groups] of Object.entries(hooks)) {
		const when = EVENTS[event] ?? `on Claude Code's "${event}" event`;
		for (const group of Array.isArray(groups) ? groups : []) {
			if (!isRecord(group)) continue;
			const matcher =
				typeof group["matcher"] === "string" && group["matcher"] !== "" && group["matcher"] !== "*"
					? ` (for ${quoted(group["matcher"])})`
					: "";
			for (const hook of Array.isArray(group["hooks"]) ? group["hooks"] : []) {
				if (isRecord(hook)) describeHook(hook, `${when}${matcher}`, add);
			}
		}
	}
}

function describeHook(hook: Record<string, unknown>, when: string, add: Add): void {
	const text = (key: string): string => (typeof hook[key] === "string" ? quoted(hook[key]) : "(nothing given)");
	switch (hook["type"]) {
		case "http":
			add("sends", `Sends the session's details to ${text("url")} ${when}.`);
			return;
		case "prompt":
			add("changes", `Asks the model to judge ${when}: ${text("prompt")}.`);
			return;
		case "agent":
			add("runs", `Starts a helper agent ${when}: ${text("prompt")}.`);
			return;
		case "mcp_tool":
			add("runs", `Calls the tool ${text("tool")} of the tool server ${text("server")} ${when}.`);
			return;
		default:
			add("runs", `Runs ${text("command")} ${when}.`);
	}
}

function describeEnv(env: unknown, add: Add): void {
	if (!isRecord(env)) return;
	for (const [name, value] of Object.entries(env)) {
		const shown = typeof value === "string" ? value : JSON.stringify(value);
		if (ADDRESS_VARIABLE.test(name))
			add(
				"sends",
				`Sets ${name} to ${quoted(shown)}: what Claude Code sends there (your messages, notes, API key) goes to that address.`,
			);
		else if (CODE_VARIABLES.has(name.toUpperCase()))
			add("runs", `Sets ${name} to ${quoted(shown)}, which changes what programs run.`);
		else add("changes", `Sets the environment variable ${name}.`);
	}
}

function describePermissions(permissions: unknown, add: Add): void {
	if (!isRecord(permissions)) return;
	for (const rule of Array.isArray(permissions["allow"]) ? permissions["allow"] : []) {
		if (typeof rule === "string") add("allows", `Lets Claude use ${quoted(rule)} without asking.`);
	}
	for (const folder of Array.isArray(permissions["additionalDirectories"])
		? permissions["additionalDirectories"]
		: []) {
		if (typeof folder === "string") add("allows", `Gives Claude the folder ${quoted(folder)} too.`);
	}
	const mode = permissions["defaultMode"];
	if (typeof mode === "string")
		add(
			"allows",
			mode === "bypassPermissions"
				? "Starts sessions that never ask before acting."
				: `Starts sessions in the permission mode ${quoted(mode)}.`,
		);
}

/** Each server of a `.mcp.json`: the program it starts, or the address it connects to. */
export function describeMcpServers(file: string, config: Record<string, unknown>): ConfigItem[] {
	const servers = config["mcpServers"];
	if (!isRecord(servers)) return [];
	const items: ConfigItem[] = [];
	for (const [name, server] of Object.entries(servers)) {
		if (!isRecord(server)) continue;
		if (typeof server["url"] === "string") {
			items.push({
				kind: "sends",
				text: `Connects to ${quoted(server["url"])} (the tool server ${quoted(name)}).`,
				file,
			});
			continue;
		}
		const args = Array.isArray(server["args"])
			? server["args"].filter((arg): arg is string => typeof arg === "string")
			: [];
		const command =
			typeof server["command"] === "string" ? [server["command"], ...args].join(" ") : "(nothing given)";
		items.push({ kind: "runs", text: `Starts ${quoted(command)} (the tool server ${quoted(name)}).`, file });
		if (isRecord(server["env"])) {
			for (const key of Object.keys(server["env"])) {
				if (ADDRESS_VARIABLE.test(key) || CODE_VARIABLES.has(key.toUpperCase()))
					items.push({
						kind: "runs",
						text: `Gives the tool server ${quoted(name)} the environment variable ${key}.`,
						file,
					});
			}
		}
	}
	return items;
}
