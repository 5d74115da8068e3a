import { describeError } from "../../shared/describe-error";

/** A settings file we will not touch: its text is not a JSON object of the shape Claude Code reads. */
export class MalformedSettingsError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "MalformedSettingsError";
	}
}

export interface MergeResult {
	/** The whole new text of the settings file. */
	text: string;
	/** Whether `text` differs from what the file held (absent counts as empty). */
	changed: boolean;
	/** Our rules that were not in the file. */
	added: string[];
	/** Rules we wrote before that are no longer wanted, taken out. */
	removed: string[];
}

type JsonObject = Record<string, unknown>;

/**
 * Puts `wanted` into `permissions.deny` of a Claude Code settings file's text and takes out `previouslyOurs`
 * rules that are no longer wanted, leaving every other key and rule as it was, in its order. A rule the user
 * wrote that equals one of ours stays when ours goes only if it was never ours: we cannot tell them apart, so
 * `previouslyOurs` must list only rules we added (see `PermissionRecord`).
 * @param existing the file's text; undefined when the file does not exist
 * @throws MalformedSettingsError when the text is not a JSON object, or `permissions`/`permissions.deny` have the wrong type
 */
export function mergeDenyRules(
	existing: string | undefined,
	wanted: readonly string[],
	previouslyOurs: readonly string[],
): MergeResult {
	const settings = parseSettings(existing);
	const permissions = objectAt(settings, "permissions", "permissions");
	const deny = permissions === undefined ? [] : arrayAt(permissions, "deny", "permissions.deny");
	const wantedSet = new Set(wanted);
	const stale = new Set(previouslyOurs.filter((rule) => !wantedSet.has(rule)));
	const removed = deny.filter((rule): rule is string => typeof rule === "string" && stale.has(rule));
	const kept = deny.filter((rule) => !(typeof rule === "string" && stale.has(rule)));
	const present = new Set(kept.filter((rule): rule is string => typeof rule === "string"));
	const added = [...wantedSet].filter((rule) => !present.has(rule));
	const newDeny = [...kept, ...added];

	if (added.length === 0 && removed.length === 0) {
		return { text: existing ?? "", changed: false, added, removed };
	}
	const next: JsonObject = { ...settings };
	const nextPermissions: JsonObject = { ...(permissions ?? {}) };
	if (newDeny.length > 0) nextPermissions.deny = newDeny;
	else delete nextPermissions.deny;
	if (Object.keys(nextPermissions).length > 0) next.permissions = nextPermissions;
	else delete next.permissions;
	const text = `${JSON.stringify(next, null, indentOf(existing))}\n`;
	return { text, changed: text !== (existing ?? ""), added, removed };
}

/** The rules of ours (`candidates`) that the file's `permissions.deny` holds; throws as `mergeDenyRules` does. */
export function denyRulesIn(
	existing: string | undefined,
	candidates: readonly string[],
): { present: string[]; missing: string[] } {
	const settings = parseSettings(existing);
	const permissions = objectAt(settings, "permissions", "permissions");
	const deny = new Set(
		(permissions === undefined ? [] : arrayAt(permissions, "deny", "permissions.deny")).filter(
			(rule): rule is string => typeof rule === "string",
		),
	);
	return {
		present: candidates.filter((rule) => deny.has(rule)),
		missing: candidates.filter((rule) => !deny.has(rule)),
	};
}

function parseSettings(existing: string | undefined): JsonObject {
	if (existing === undefined || existing.trim() === "") return {};
	let parsed: unknown;
	try {
		parsed = JSON.parse(existing);
	} catch (error) {
		throw new MalformedSettingsError(
			`It is not valid JSON (${describeError(error)}). Fix or remove it, then try again; it was left as it is.`,
		);
	}
	if (!isObject(parsed))
		throw new MalformedSettingsError(
			"It holds JSON that is not an object. Fix or remove it, then try again; it was left as it is.",
		);
	return parsed;
}

function objectAt(parent: JsonObject, key: string, name: string): JsonObject | undefined {
	const value = parent[key];
	if (value === undefined) return undefined;
	if (!isObject(value))
		throw new MalformedSettingsError(
			`Its "${name}" is not an object. Fix it, then try again; it was left as it is.`,
		);
	return value;
}

function arrayAt(parent: JsonObject, key: string, name: string): unknown[] {
	const value = parent[key];
	if (value === undefined) return [];
	if (!Array.isArray(value))
		throw new MalformedSettingsError(`Its "${name}" is not a list. Fix it, then try again; it was left as it is.`);
	return value as unknown[];
}

function isObject(value: unknown): value is JsonObject {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keeps the file's indentation: a tab, or the width of the first indented line; two spaces for a new file. */
function indentOf(existing: string | undefined): string | number {
	const match = existing === undefined ? null : /\n([ \t]+)\S/.exec(existing);
	if (!match?.[1]) return 2;
	return match[1].startsWith("\t") ? "\t" : match[1].length;
}
