import { denyRulesFor } from "../ide/claude-permissions/deny-rules";
import { denyRulesOnDisk } from "../ide/claude-permissions/disk-spellings";
import { SETTINGS_FILES, applyPermissionPlan, planPermissions } from "../ide/claude-permissions/permissions-file";
import type { PermissionRulesInputs } from "../ide/doctor/claude-permissions-check";
import { describeError } from "../shared/describe-error";
import type { ClaudePermissionsHost } from "./claude-permissions-section";

const OPTION = '"Keep private folders out of Claude Code\'s file tools"';

/**
 * Keeps the deny rules in step with the private folders once the user turned the option on (and saw the change
 * then): when the folders, the tags or the Excluded files change, the rules are re-written and the user told.
 */
export class ClaudePermissionsSync {
	constructor(
		private readonly host: ClaudePermissionsHost,
		private readonly notify: (message: string) => void,
	) {}

	async sync(): Promise<void> {
		const { settings, vaultPath } = this.host;
		if (!settings.keepPrivateFromClaudeTools || vaultPath === undefined) return;
		const file = SETTINGS_FILES[settings.claudeSettingsFile];
		try {
			const { rules } = await denyRulesOnDisk(vaultPath, this.host.denyRuleSources());
			const plan = await planPermissions(vaultPath, rules, file);
			if (plan.changes.length === 0) return;
			await applyPermissionPlan(plan);
			const counts = plan.changes.map((change) => `${change.added.length} added, ${change.removed.length} removed`).join("; ");
			this.notify(`Claude Code's deny rules in ${file} updated for the new private folders (${counts}). Restart running Claude Code sessions.`);
		} catch (error) {
			this.notify(`Could not update Claude Code's deny rules in ${file}: ${describeError(error)}`);
		}
	}

	/** What the doctor checks: the rules the current private folders call for, in the chosen file. */
	async doctorInputs(): Promise<PermissionRulesInputs> {
		const { settings, vaultPath } = this.host;
		const sources = this.host.denyRuleSources();
		return {
			enabled: settings.keepPrivateFromClaudeTools,
			somethingPrivate: sources.folders.length > 0 || sources.tags.length > 0,
			wanted: vaultPath === undefined ? denyRulesFor(sources).rules : (await denyRulesOnDisk(vaultPath, sources)).rules,
			settingsFile: SETTINGS_FILES[settings.claudeSettingsFile],
			howToWrite: settings.keepPrivateFromClaudeTools ? `Turn ${OPTION} off and on again in the plugin's settings` : `Turn on ${OPTION} in the plugin's settings`,
		};
	}
}
