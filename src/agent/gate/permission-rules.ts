import type { ToolUseRequest } from "../agent-session";

/**
 * An "always allow" rule: a tool by name, and for Bash the command it may start with (Claude Code's own
 * `Bash(npm test:*)` form). Rules are kept where the user can list and revoke them; never a token or a credential.
 */
export interface PermissionRule {
	tool: string;
	/** Bash only: the command, or the words a command starts with. */
	commandPrefix?: string;
}

/** Where "always" rules are kept (the plugin's data, a JSON file for the headless host, memory in tests). */
export interface PermissionRules {
	list(): Promise<readonly PermissionRule[]>;
	add(rule: PermissionRule): Promise<void>;
	revoke(rule: PermissionRule): Promise<void>;
}

/** Shell syntax that chains, substitutes or redirects: a command holding any of it matches only a rule for exactly itself. */
const SHELL_SYNTAX = /[;&|`$<>()\\\n\r]/;

/** How a rule reads in settings and in the panel: `Bash(npm test:*)`, `Bash(ls -la)`, `WebFetch`. */
export function ruleText(rule: PermissionRule): string {
	if (rule.commandPrefix === undefined) return rule.tool;
	return SHELL_SYNTAX.test(rule.commandPrefix)
		? `${rule.tool}(${rule.commandPrefix})`
		: `${rule.tool}(${rule.commandPrefix}:*)`;
}

export function sameRule(a: PermissionRule, b: PermissionRule): boolean {
	return a.tool === b.tool && a.commandPrefix === b.commandPrefix;
}

/**
 * Whether a rule allows a tool use. A Bash rule allows the command itself, or a command that starts with its
 * words and holds no shell syntax (so `npm test && rm -rf ~` is never allowed by `Bash(npm test:*)`).
 */
export function ruleMatches(rule: PermissionRule, request: ToolUseRequest): boolean {
	if (rule.tool !== request.toolName) return false;
	if (rule.commandPrefix === undefined) return request.toolName !== "Bash";
	const command = bashCommand(request);
	if (command === undefined) return false;
	if (command === rule.commandPrefix) return true;
	return (
		!SHELL_SYNTAX.test(command) &&
		!SHELL_SYNTAX.test(rule.commandPrefix) &&
		command.startsWith(`${rule.commandPrefix} `)
	);
}

/**
 * The rule an "always" or "for this session" answer adds: the tool; for Bash, the command's program and its
 * subcommand (`npm test`, `git status`), or the whole command when it holds shell syntax.
 */
export function ruleFor(request: ToolUseRequest): PermissionRule {
	if (request.toolName !== "Bash") return { tool: request.toolName };
	const command = bashCommand(request) ?? "";
	if (SHELL_SYNTAX.test(command)) return { tool: "Bash", commandPrefix: command };
	const [program = "", second] = command.split(/\s+/);
	const subcommand = second !== undefined && /^[A-Za-z][\w:.-]*$/.test(second) ? ` ${second}` : "";
	return { tool: "Bash", commandPrefix: `${program}${subcommand}` };
}

function bashCommand(request: ToolUseRequest): string | undefined {
	const command = request.input.command;
	return typeof command === "string" ? command.trim() : undefined;
}

/** Rules kept in memory (tests, and a root that keeps none across restarts). */
export class MemoryPermissionRules implements PermissionRules {
	private rules: PermissionRule[] = [];

	list(): Promise<readonly PermissionRule[]> {
		return Promise.resolve([...this.rules]);
	}

	add(rule: PermissionRule): Promise<void> {
		if (!this.rules.some((kept) => sameRule(kept, rule))) this.rules.push({ ...rule });
		return Promise.resolve();
	}

	revoke(rule: PermissionRule): Promise<void> {
		this.rules = this.rules.filter((kept) => !sameRule(kept, rule));
		return Promise.resolve();
	}
}
