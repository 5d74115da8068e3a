import { join } from "node:path";
import { denyRulesFor } from "../../ide/claude-permissions/deny-rules";
import { denyRulesOnDisk } from "../../ide/claude-permissions/disk-spellings";
import { SETTINGS_FILES, applyPermissionPlan, planPermissions } from "../../ide/claude-permissions/permissions-file";
import type { PermissionRulesInputs } from "../../ide/doctor/claude-permissions-check";
import { describeError } from "../../shared/describe-error";
import type { ClaudePermissionsHost } from "./claude-permissions-section";

const OPTION = '"Keep private folders out of Claude Code\'s file tools"';

/**
 * Keeps the deny rules in step with the private folders once the user turned the option on and wrote them after
 * seeing the change, on this device: when the folders, the tags or the Excluded files change, the rules are
 * re-written in the file they went into and the user told which file changed. Only rules written from this
 * device are ever taken out. Without such a write (the option came on in a synced data.json, or the file chosen
 * changed), nothing is written: a notice says a preview is waiting in the settings tab.
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
		const fullPath = join(vaultPath, file);
		const previewed = this.host.previewedPermissions.load();
		try {
			const { rules } = await denyRulesOnDisk(vaultPath, this.host.denyRuleSources());
			if (previewed?.settingsFile !== file) {
				const pending = await planPermissions(vaultPath, rules, file);
				if (pending.changes.length > 0) {
					this.notify(
						`Claude Code's deny rules in ${fullPath} are not up to date, and nothing was written: the change has not been previewed on this device. See it in the plugin's settings, under "Claude Code's file tools".`,
					);
				}
				return;
			}
			const plan = await planPermissions(vaultPath, rules, file, { record: previewed, notes: [] });
			if (plan.changes.length === 0) return;
			await applyPermissionPlan(plan);
			this.host.previewedPermissions.remember(plan.record);
			const counts = plan.changes
				.map((change) => `${change.added.length} added, ${change.removed.length} removed`)
				.join("; ");
			this.notify(
				`Claude Code's deny rules updated in ${fullPath} for the new private folders (${counts}). Restart running Claude Code sessions.`,
			);
		} catch (error) {
			this.notify(`Could not update Claude Code's deny rules in ${fullPath}: ${describeError(error)}`);
		}
	}

	/** What the doctor checks: the rules the current private folders call for, in the chosen file. */
	async doctorInputs(): Promise<PermissionRulesInputs> {
		const { settings, vaultPath } = this.host;
		const sources = this.host.denyRuleSources();
		return {
			enabled: settings.keepPrivateFromClaudeTools,
			somethingPrivate: sources.folders.length > 0 || sources.tags.length > 0,
			wanted:
				vaultPath === undefined
					? denyRulesFor(sources).rules
					: (await denyRulesOnDisk(vaultPath, sources)).rules,
			settingsFile: SETTINGS_FILES[settings.claudeSettingsFile],
			howToWrite: settings.keepPrivateFromClaudeTools
				? `Turn ${OPTION} off and on again in the plugin's settings`
				: `Turn on ${OPTION} in the plugin's settings`,
		};
	}
}
