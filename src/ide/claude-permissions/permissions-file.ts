import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import { dirname, join } from "node:path";
import { createPatch } from "diff";
import { MalformedSettingsError, denyRulesIn, mergeDenyRules } from "./settings-merge";

/** The two project settings files Claude Code reads from the folder it runs in: shared, or personal (git-ignored). */
export type SettingsFileChoice = "shared" | "local";

export const SETTINGS_FILES: Record<SettingsFileChoice, string> = {
	shared: ".claude/settings.json",
	local: ".claude/settings.local.json",
};

/**
 * Where we remember which rules we wrote, and into which file, so they can be updated or taken out later without
 * touching rules the user wrote. Claude Code's settings files have a fixed schema, so the mark cannot live in them.
 * It holds rule strings only (never the token).
 */
export const RECORD_FILE = ".claude/claude-code-bridge-permissions.json";

export interface PermissionRecord {
	settingsFile: string;
	rules: string[];
}

export interface FileChange {
	/** Vault-relative, forward slashes. */
	relativePath: string;
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
	settingsFile: string;
	changes: FileChange[];
	record: PermissionRecord;
}

/**
 * Works out the change that puts `rules` into `settingsFile` (vault-relative) and takes out the rules we wrote
 * before and no longer want, wherever we wrote them. `rules` empty: only takes ours out (the option turned off).
 * @throws MalformedSettingsError when a settings file it must change is not valid JSON of the right shape
 */
export async function planPermissions(vaultPath: string, rules: readonly string[], settingsFile: string): Promise<PermissionPlan> {
	const previous = await readRecord(vaultPath);
	const changes: FileChange[] = [];
	if (previous && previous.settingsFile !== settingsFile && previous.rules.length > 0) {
		const change = await planFile(vaultPath, previous.settingsFile, [], previous.rules);
		if (change) changes.push(change);
	}
	const previousHere = previous?.settingsFile === settingsFile ? previous.rules : [];
	const change = await planFile(vaultPath, settingsFile, rules, previousHere);
	if (change) changes.push(change);
	return { vaultPath, rules: [...rules], settingsFile, changes, record: { settingsFile, rules: [...rules] } };
}

/**
 * Writes a plan's changes, each atomically (a temp file beside it, then a rename), and remembers the rules.
 * Refuses, writing nothing more, when a file changed since the plan was made.
 */
export async function applyPermissionPlan(plan: PermissionPlan): Promise<void> {
	for (const change of plan.changes) {
		const path = join(plan.vaultPath, change.relativePath);
		if ((await readOptional(path)) !== change.before) {
			throw new Error(`${change.relativePath} changed since the preview was made; nothing more was written. Look at the preview again.`);
		}
	}
	for (const change of plan.changes) await writeAtomically(join(plan.vaultPath, change.relativePath), change.after);
	const recordPath = join(plan.vaultPath, RECORD_FILE);
	if (plan.record.rules.length === 0) await fs.rm(recordPath, { force: true });
	else await writeAtomically(recordPath, `${JSON.stringify(plan.record, null, 2)}\n`);
}

/** How the rules in a settings file compare with the wanted ones, for the doctor. */
export interface PermissionState {
	settingsFile: string;
	wanted: string[];
	present: string[];
	missing: string[];
	/** Rules we wrote before that are in the file but no longer wanted (private folders changed). */
	stale: string[];
}

/** @throws MalformedSettingsError when the settings file is not valid JSON of the right shape */
export async function readPermissionState(vaultPath: string, wanted: readonly string[], settingsFile: string): Promise<PermissionState> {
	const text = await readOptional(join(vaultPath, settingsFile));
	const record = await readRecord(vaultPath);
	const previous = record?.settingsFile === settingsFile ? record.rules : [];
	const { present, missing } = denyRulesIn(text, wanted);
	const stale = denyRulesIn(text, previous.filter((rule) => !wanted.includes(rule))).present;
	return { settingsFile, wanted: [...wanted], present, missing, stale };
}

/** The rules we wrote last time, or undefined when we never wrote any (or the record is unreadable). */
export async function readRecord(vaultPath: string): Promise<PermissionRecord | undefined> {
	const text = await readOptional(join(vaultPath, RECORD_FILE));
	if (text === undefined) return undefined;
	try {
		const parsed: unknown = JSON.parse(text);
		if (typeof parsed !== "object" || parsed === null) return undefined;
		const { settingsFile, rules } = parsed as Record<string, unknown>;
		if (typeof settingsFile !== "string" || !Array.isArray(rules)) return undefined;
		return { settingsFile, rules: rules.filter((rule): rule is string => typeof rule === "string") };
	} catch {
		return undefined;
	}
}

async function planFile(vaultPath: string, relativePath: string, wanted: readonly string[], previouslyOurs: readonly string[]): Promise<FileChange | undefined> {
	const before = await readOptional(join(vaultPath, relativePath));
	let merged;
	try {
		merged = mergeDenyRules(before, wanted, previouslyOurs);
	} catch (error) {
		if (error instanceof MalformedSettingsError) throw new MalformedSettingsError(`${relativePath}: ${error.message}`);
		throw error;
	}
	if (!merged.changed) return undefined;
	const patch = createPatch(relativePath, before ?? "", merged.text, before === undefined ? "(new file)" : "", "", { context: 3 });
	return { relativePath, before, after: merged.text, added: merged.added, removed: merged.removed, patch };
}

async function readOptional(path: string): Promise<string | undefined> {
	try {
		return await fs.readFile(path, "utf8");
	} catch (error) {
		if (typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT") return undefined;
		throw error;
	}
}

/** A temp file in the same folder, then a rename: a reader sees the old text or the new, never half. A symlinked file is written through to its target. */
async function writeAtomically(path: string, text: string): Promise<void> {
	let target = path;
	try {
		target = await fs.realpath(path);
	} catch {
		// A new file: written where asked.
	}
	await fs.mkdir(dirname(target), { recursive: true });
	const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
	try {
		await fs.writeFile(temp, text, { encoding: "utf8", flag: "wx" });
		await fs.rename(temp, target);
	} catch (error) {
		await fs.rm(temp, { force: true });
		throw error;
	}
}
