import { findConfigFolders } from "../ide/claude-permissions/config-folders";
import type { DenyRules } from "../ide/claude-permissions/deny-rules";
import { denyRulesOnDisk } from "../ide/claude-permissions/disk-spellings";
import {
	SETTINGS_FILES,
	applyPermissionPlan,
	planPermissions,
	readRecord,
	type PermissionPlan,
	type PermissionRecord,
} from "../ide/claude-permissions/permissions-file";
import { UnsafeSettingsPathError } from "../ide/claude-permissions/settings-location";
import type { PermissionRulesInputs } from "../ide/doctor/claude-permissions-check";
import type { PrivacyRules } from "../vault/privacy/privacy";
import type { HeadlessCommand } from "./command-loop";

const USAGE = "claude-permissions show|write|remove [--local]";

/**
 * `claude-permissions`: the privacy rules as `permissions.deny` rules for Claude Code's own file tools, which the
 * bridge's rules do not reach. `show` prints the rules and the exact change; `write` merges them into
 * `<vault>/.claude/settings.json` (`--local`: `settings.local.json`); `remove` takes ours out again. The file is
 * chosen by `--local` alone, never by the record in the vault; see `planPermissions`.
 */
export function claudePermissionsCommand(vaultPath: string, rules: () => PrivacyRules): HeadlessCommand {
	return {
		usage: USAGE,
		summary: "keep private folders out of Claude Code's own Read/Edit: show or write the deny rules",
		run: async (args) => {
			const [action, ...options] = args;
			const unknown = options.filter((option) => option !== "--local");
			if ((action !== "show" && action !== "write" && action !== "remove") || unknown.length > 0)
				throw new Error(`Usage: ${USAGE}`);
			const settingsFile = options.includes("--local") ? SETTINGS_FILES.local : SETTINGS_FILES.shared;
			// Rules read in part would write (or remove) the wrong deny rules: nothing is planned until they can be read.
			const current = rules();
			if (current.unreadable !== undefined) throw new Error(`Nothing shown or changed: ${current.unreadable}`);
			const deny = await hostDenyRules(vaultPath, current);
			const plan = await planPermissions(vaultPath, action === "remove" ? [] : deny.rules, settingsFile);
			if (action === "show")
				return describePlan(plan, deny.uncovered, options.includes("--local") ? " --local" : "");
			await applyPermissionPlan(plan);
			if (plan.changes.length === 0) return [...plan.notes, `Nothing to change in ${settingsFile}.`].join("\n");
			const written = plan.changes.map(
				(change) => `${change.relativePath}: ${change.added.length} added, ${change.removed.length} removed`,
			);
			return [
				...plan.notes,
				`Wrote ${written.join("; ")}.`,
				"Claude Code reads the rules when it starts: restart running sessions.",
			].join("\n");
		},
	};
}

/** The deny rules the headless host writes for these privacy rules: the vault's config folders and the folders' spellings found on disk. */
export async function hostDenyRules(vaultPath: string, rules: PrivacyRules): Promise<DenyRules> {
	return denyRulesOnDisk(vaultPath, {
		folders: rules.folders,
		tags: rules.tags,
		configDirs: await findConfigFolders(vaultPath),
	});
}

function describePlan(plan: PermissionPlan, uncovered: readonly string[], flag: string): string {
	const lines = [
		...plan.notes,
		`Deny rules for ${plan.settingsFile}:`,
		...plan.rules.map((rule) => `  ${rule}`),
		"Not covered:",
		...uncovered.map((note) => `  - ${note}`),
	];
	if (plan.changes.length === 0) lines.push("Already in place: nothing to change.");
	else
		lines.push(
			"The change:",
			...plan.changes.map((change) => change.patch.trimEnd()),
			`Run "claude-permissions write${flag}" to make it.`,
		);
	return lines.join("\n");
}

/**
 * The doctor's check of the rules as the headless host sees them. Writing them is the user's choice, as in the
 * plugin: once written (the record exists), they are checked in the file they went into.
 */
export async function headlessPermissionRules(vaultPath: string, rules: PrivacyRules): Promise<PermissionRulesInputs> {
	const deny = await hostDenyRules(vaultPath, rules);
	const somethingPrivate = rules.folders.length > 0 || rules.tags.length > 0;
	const howToWrite = 'Type "claude-permissions write"';
	let record: PermissionRecord | undefined;
	try {
		({ record } = await readRecord(vaultPath));
	} catch (error) {
		// A linked .claude: checked as if written, so that the check reads the file and reports the link.
		if (error instanceof UnsafeSettingsPathError)
			return {
				enabled: true,
				somethingPrivate,
				wanted: deny.rules,
				settingsFile: SETTINGS_FILES.shared,
				howToWrite,
			};
		throw error;
	}
	return {
		enabled: record !== undefined,
		somethingPrivate,
		wanted: deny.rules,
		settingsFile: record?.settingsFile ?? SETTINGS_FILES.shared,
		howToWrite,
	};
}
