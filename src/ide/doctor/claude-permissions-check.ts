import { readPermissionState, type SettingsFile } from "../claude-permissions/permissions-file";
import { UnsafeSettingsPathError } from "../claude-permissions/settings-location";
import { MalformedSettingsError } from "../claude-permissions/settings-merge";
import { fail, ok, warn, type DoctorLine } from "./doctor-line";

/** What the doctor needs to check the deny rules for Claude Code's own file tools. */
export interface PermissionRulesInputs {
	/** Whether the user asked for the rules (the plugin's option); the headless host always checks. */
	enabled: boolean;
	/** The rules the current private folders call for (`denyRulesFor`). */
	wanted: string[];
	/** Whether any private folder or tag is set: with none, an option left off is no finding. */
	somethingPrivate: boolean;
	/** Vault-relative settings file the rules go into: one of the two the bridge writes. */
	settingsFile: SettingsFile;
	/** How the user writes or updates them: the setting's name, or the headless command. */
	howToWrite: string;
}

/**
 * Whether Claude Code's built-in Read/Grep/Edit are kept out of the private folders: the deny rules in place,
 * missing, or outdated (the private folders changed since they were written), and what to do.
 */
export async function checkPermissionRules(vaultPath: string, inputs: PermissionRulesInputs): Promise<DoctorLine> {
	const subject = "Claude Code's own file tools (Read, Grep, Edit)";
	if (inputs.wanted.length === 0)
		return ok(`No private folders and no config folder: ${subject} have nothing to be kept out of`);
	if (!inputs.enabled && !inputs.somethingPrivate)
		return ok(`No private folders or tags are set, so ${subject} are not asked to keep out of any`);
	if (!inputs.enabled) {
		return warn(
			`${subject} can open notes in private folders and the config folder: the bridge's privacy rules do not reach them`,
			`${inputs.howToWrite} to write deny rules for them.`,
		);
	}
	let state;
	try {
		state = await readPermissionState(vaultPath, inputs.wanted, inputs.settingsFile);
	} catch (error) {
		if (error instanceof MalformedSettingsError || error instanceof UnsafeSettingsPathError) {
			return fail(
				`${inputs.settingsFile} cannot be read, so the deny rules for ${subject} are not known to be in place: ${error.message}`,
				`Fix the file, then ${lowerFirst(inputs.howToWrite)}.`,
			);
		}
		throw error;
	}
	const { missing, stale, present } = state;
	if (missing.length === 0 && stale.length === 0)
		return ok(
			`${subject} are kept out of the private folders and the config folder: ${present.length} deny rules in place in ${inputs.settingsFile}`,
		);
	if (missing.length === 0) {
		return warn(
			`${inputs.settingsFile} still holds deny rules the bridge wrote for folders that are no longer private: ${stale.join(", ")}`,
			`${inputs.howToWrite} to update them.`,
		);
	}
	const outdated = stale.length > 0 || present.length > 0;
	const what = outdated
		? `The deny rules for ${subject} in ${inputs.settingsFile} are outdated (the private folders changed): ${listed(missing, inputs.wanted.length)}`
		: `The deny rules for ${subject} are missing from ${inputs.settingsFile}, so Claude Code can read the private folders directly`;
	return fail(what, `${inputs.howToWrite} to write them, then restart Claude Code.`);
}

function listed(missing: readonly string[], total: number): string {
	const shown = missing.slice(0, 4).join(", ");
	return `${missing.length} of ${total} missing (${shown}${missing.length > 4 ? ", …" : ""})`;
}

function lowerFirst(text: string): string {
	return text.charAt(0).toLowerCase() + text.slice(1);
}
