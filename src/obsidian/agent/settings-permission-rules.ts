import { ruleText, sameRule, type PermissionRule, type PermissionRules } from "../../agent/permission-rules";
import type { AgentPanelSettings } from "../../settings";
import type { AlwaysAllowRule, AlwaysAllowRules } from "./agent-settings-section";

/**
 * The panel's "always allow" rules kept in the plugin's settings (data.json: a tool name and a command prefix,
 * never a token), for the tool gate to read and add to, and for the settings list to show and revoke.
 */
export class SettingsPermissionRules implements PermissionRules, AlwaysAllowRules {
	constructor(
		private readonly settings: () => AgentPanelSettings,
		private readonly save: () => Promise<void>,
	) {}

	/** Each rule with its text (`Bash(npm test:*)`) as the settings list's id and description. */
	list(): Promise<readonly (PermissionRule & AlwaysAllowRule)[]> {
		return Promise.resolve(this.settings().alwaysAllow.map((rule) => ({ ...rule, id: ruleText(rule), description: ruleText(rule) })));
	}

	async add(rule: PermissionRule): Promise<void> {
		const rules = this.settings().alwaysAllow;
		if (rules.some((kept) => sameRule(kept, rule))) return;
		rules.push(rule.commandPrefix === undefined ? { tool: rule.tool } : { tool: rule.tool, commandPrefix: rule.commandPrefix });
		await this.save();
	}

	async revoke(rule: PermissionRule | string): Promise<void> {
		const settings = this.settings();
		const kept = settings.alwaysAllow.filter((candidate) => (typeof rule === "string" ? ruleText(candidate) !== rule : !sameRule(candidate, rule)));
		if (kept.length === settings.alwaysAllow.length) return;
		settings.alwaysAllow = kept;
		await this.save();
	}
}
