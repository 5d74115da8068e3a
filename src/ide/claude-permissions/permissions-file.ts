import { unifiedPatch } from "../../shared/unified-patch";
import { hasBridgeRuleShape } from "./deny-rules";
import { MalformedSettingsError, denyRulesIn, mergeDenyRules } from "./settings-merge";
import { checkWritable, readInsideVault, removeInsideVault, writeInsideVault } from "./settings-location";

/** The two project settings files Claude Code reads from the folder it runs in: shared, or personal (git-ignored). */
export type SettingsFileChoice = "shared" | "local";

export const SETTINGS_FILES = {
	shared: ".claude/settings.json",
	local: ".claude/settings.local.json",
} as const satisfies Record<SettingsFileChoice, string>;

/** One of the two files, vault-relative: the only files the bridge writes rules into. */
export type SettingsFile = (typeof SETTINGS_FILES)[SettingsFileChoice];

/**
 * Where we remember which rules we wrote, and into which file, so they can be updated or taken out later without
 * touching rules the user wrote. Claude Code's settings files have a fixed schema, so the mark cannot live in them.
 * It holds rule strings only (never the token). It is vault data, so it is never followed as a path: the file it
 * names counts only when it is one of `SETTINGS_FILES`, and only its rules of the bridge's shape are taken out.
 */
export const RECORD_FILE = ".claude/claude-code-bridge-permissions.json";

export interface PermissionRecord {
	settingsFile: SettingsFile;
	/** The rules we added to that file (not those the user had written already). */
	rules: string[];
}

/** The record as read, with a sentence for each part of it that was ignored. */
export interface RecordReading {
	record: PermissionRecord | undefined;
	notes: string[];
}

export interface FileChange {
	/** Vault-relative, forward slashes: one of `SETTINGS_FILES`. */
	relativePath: SettingsFile;
	before: string | undefined;
	after: string;
	added: string[];
	removed: string[];
	/** A unified diff of the change. */
	patch: string;
}

/** What writing would do: nothing is written until `applyPermissionPlan`. */
export interface PermissionPlan {
	vaultPath: string;
	/** The rules that will be in place afterwards ([] when taking ours out). */
	rules: string[];
	settingsFile: SettingsFile;
	changes: FileChange[];
	record: PermissionRecord;
	/** What was ignored in the record, to be shown with the change. */
	notes: string[];
}

/**
 * Works out the change that puts `rules` into `settingsFile` and takes out the rules we wrote before and no longer
 * want, in whichever of the two settings files we wrote them. `rules` empty: only takes ours out (the option turned
 * off). `previous`: what we wrote before, when the caller knows it better than the vault's record (the plugin's
 * automatic update trusts only what was written from this device); by default the record is read.
 * @throws MalformedSettingsError when a settings file it must change is not valid JSON of the right shape
 * @throws UnsafeSettingsPathError when `.claude`, a settings file or the record is a symbolic link or outside the vault
 */
export async function planPermissions(
	vaultPath: string,
	rules: readonly string[],
	settingsFile: SettingsFile,
	previous?: RecordReading,
): Promise<PermissionPlan> {
	if (!isSettingsFile(settingsFile))
		throw new Error(
			`${String(settingsFile)} is not one of Claude Code's project settings files (${Object.values(SETTINGS_FILES).join(", ")})`,
		);
	const { record, notes } = previous ?? (await readRecord(vaultPath));
	const changes: FileChange[] = [];
	if (record && record.settingsFile !== settingsFile && record.rules.length > 0) {
		const change = await planFile(vaultPath, record.settingsFile, [], record.rules);
		if (change) changes.push(change);
	}
	const previousHere = record?.settingsFile === settingsFile ? record.rules : [];
	const change = await planFile(vaultPath, settingsFile, rules, previousHere);
	if (change) changes.push(change);
	// Ours afterwards: what we add now and what was ours already. A rule the user had written stays theirs.
	const ours = rules.filter((rule) => (change?.added.includes(rule) ?? false) || previousHere.includes(rule));
	return { vaultPath, rules: [...rules], settingsFile, changes, record: { settingsFile, rules: ours }, notes };
}

/**
 * Writes a plan's changes, each atomically (see `writeInsideVault`), and remembers the rules we added. Checks every
 * file first and refuses, writing nothing, when one changed since the plan was made or became a link.
 */
export async function applyPermissionPlan(plan: PermissionPlan): Promise<void> {
	for (const change of plan.changes) {
		if ((await readInsideVault(plan.vaultPath, change.relativePath)) !== change.before) {
			throw new Error(
				`${change.relativePath} changed since the preview was made; nothing more was written. Look at the preview again.`,
			);
		}
	}
	await checkWritable(plan.vaultPath, RECORD_FILE);
	for (const change of plan.changes) await writeInsideVault(plan.vaultPath, change.relativePath, change.after);
	if (plan.rules.length === 0) await removeInsideVault(plan.vaultPath, RECORD_FILE);
	else await writeInsideVault(plan.vaultPath, RECORD_FILE, `${JSON.stringify(plan.record, null, 2)}\n`);
}

/** How the rules in a settings file compare with the wanted ones, for the doctor. */
export interface PermissionState {
	settingsFile: SettingsFile;
	wanted: string[];
	present: string[];
	missing: string[];
	/** Rules we wrote before that are in the file but no longer wanted (private folders changed). */
	stale: string[];
}

/**
 * @throws MalformedSettingsError when the settings file is not valid JSON of the right shape
 * @throws UnsafeSettingsPathError when it (or `.claude`) is a symbolic link or outside the vault
 */
export async function readPermissionState(
	vaultPath: string,
	wanted: readonly string[],
	settingsFile: SettingsFile,
): Promise<PermissionState> {
	const text = await readInsideVault(vaultPath, settingsFile);
	const { record } = await readRecord(vaultPath);
	const previous = record?.settingsFile === settingsFile ? record.rules : [];
	const { present, missing } = denyRulesIn(text, wanted);
	const stale = denyRulesIn(
		text,
		previous.filter((rule) => !wanted.includes(rule)),
	).present;
	return { settingsFile, wanted: [...wanted], present, missing, stale };
}

/**
 * The rules we wrote last time (undefined when we never wrote any, or the record is unreadable), with what was
 * ignored in it: a file that is not one of `SETTINGS_FILES` (the whole record is then ignored, since its rules
 * cannot be placed) and rules not of the bridge's shape.
 * @throws UnsafeSettingsPathError when the record (or `.claude`) is a symbolic link or outside the vault
 */
export async function readRecord(vaultPath: string): Promise<RecordReading> {
	const text = await readInsideVault(vaultPath, RECORD_FILE);
	if (text === undefined) return { record: undefined, notes: [] };
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return { record: undefined, notes: [] };
	}
	if (typeof parsed !== "object" || parsed === null) return { record: undefined, notes: [] };
	const { settingsFile, rules } = parsed as Record<string, unknown>;
	if (typeof settingsFile !== "string" || !Array.isArray(rules)) return { record: undefined, notes: [] };
	if (!isSettingsFile(settingsFile)) {
		const files = Object.values(SETTINGS_FILES).join(", ");
		return {
			record: undefined,
			notes: [
				`${RECORD_FILE} names ${JSON.stringify(settingsFile)}, which is not one of the vault's Claude Code settings files (${files}): it was ignored.`,
			],
		};
	}
	const strings = rules.filter((rule): rule is string => typeof rule === "string");
	const foreign = strings.filter((rule) => !hasBridgeRuleShape(rule));
	const notes =
		foreign.length === 0
			? []
			: [
					`${RECORD_FILE} lists rules the bridge never writes (${foreign.join(", ")}): they were ignored and are never taken out.`,
				];
	return { record: { settingsFile, rules: strings.filter(hasBridgeRuleShape) }, notes };
}

export function isSettingsFile(path: string): path is SettingsFile {
	return Object.values<string>(SETTINGS_FILES).includes(path);
}

async function planFile(
	vaultPath: string,
	relativePath: SettingsFile,
	wanted: readonly string[],
	previouslyOurs: readonly string[],
): Promise<FileChange | undefined> {
	const before = await readInsideVault(vaultPath, relativePath);
	let merged;
	try {
		merged = mergeDenyRules(before, wanted, previouslyOurs);
	} catch (error) {
		if (error instanceof MalformedSettingsError)
			throw new MalformedSettingsError(`${relativePath}: ${error.message}`);
		throw error;
	}
	if (!merged.changed) return undefined;
	const patch = unifiedPatch(relativePath, before ?? "", merged.text, before === undefined ? "(new file)" : "");
	return { relativePath, before, after: merged.text, added: merged.added, removed: merged.removed, patch };
}
