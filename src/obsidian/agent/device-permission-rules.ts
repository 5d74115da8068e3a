import { ruleText, sameRule, type PermissionRule, type PermissionRules } from "../../agent/gate/permission-rules";
import type { AlwaysAllowRule, AlwaysAllowRules } from "./agent-settings-section";
import type { DeviceAgentSettings } from "./device-agent-settings";

/**
 * The panel's "always allow" rules (a tool name and a command prefix, never a token), kept on this device only
 * (`DeviceAgentSettings`, never data.json): for the tool gate to read and add to, and for the settings list to show
 * and revoke.
 */
export class DevicePermissionRules implements PermissionRules, AlwaysAllowRules {
	constructor(private readonly device: DeviceAgentSettings) {}

	/** Each rule with its text (`Bash(npm test:*)`) as the settings list's id and description. */
	list(): Promise<readonly (PermissionRule & AlwaysAllowRule)[]> {
		return Promise.resolve(
			this.device.alwaysAllow().map((rule) => ({ ...rule, id: ruleText(rule), description: ruleText(rule) })),
		);
	}

	add(rule: PermissionRule): Promise<void> {
		const rules = this.device.alwaysAllow();
		if (!rules.some((kept) => sameRule(kept, rule))) this.device.setAlwaysAllow([...rules, rule]);
		return Promise.resolve();
	}

	revoke(rule: PermissionRule | string): Promise<void> {
		const rules = this.device.alwaysAllow();
		const kept = rules.filter((candidate) =>
			typeof rule === "string" ? ruleText(candidate) !== rule : !sameRule(candidate, rule),
		);
		if (kept.length !== rules.length) this.device.setAlwaysAllow(kept);
		return Promise.resolve();
	}
}
