import type { PathKey } from "../path-identity";
import { isHidden, normaliseFolder, normaliseTag, type PrivacyRules } from "./privacy";

/**
 * What a running bridge says about the privacy it applies (the relay's `vaultTools/privacy` answer): its rules in
 * force and, for Obsidian, the config folder whose settings they come from. A plain JSON object.
 */
export type BridgePrivacy = {
	folders: string[];
	tags: string[];
	/** Set when the bridge cannot read its settings: it then hides every note. */
	unreadable?: string;
	/** The config folder the bridge's settings live in (`app.vault.configDir`), when the bridge knows it. */
	configFolder?: string;
};

/** The answer a bridge gives for its rules. */
export function bridgePrivacy(rules: PrivacyRules, configFolder: string | undefined): BridgePrivacy {
	return {
		folders: [...rules.folders],
		tags: [...rules.tags],
		...(rules.unreadable !== undefined ? { unreadable: rules.unreadable } : {}),
		...(configFolder !== undefined ? { configFolder } : {}),
	};
}

/** A bridge's answer read back; undefined when it is not one. */
export function readBridgePrivacy(value: unknown): BridgePrivacy | undefined {
	if (typeof value !== "object" || value === null) return undefined;
	const record = value as Record<string, unknown>;
	const { folders, tags, unreadable, configFolder } = record;
	if (!isStringList(folders) || !isStringList(tags)) return undefined;
	if (unreadable !== undefined && typeof unreadable !== "string") return undefined;
	if (configFolder !== undefined && typeof configFolder !== "string") return undefined;
	return {
		folders,
		tags,
		...(unreadable !== undefined ? { unreadable } : {}),
		...(configFolder !== undefined ? { configFolder } : {}),
	};
}

/**
 * The rules of `own` that `bridge` does not keep, described for a log line (`the folder "Extra"`, `the tag
 * "#x"`); empty when the bridge hides at least every note `own` hides. A folder is kept by the same folder or one
 * above it (compared in the vault's path identity, as the bridge compares them), a tag by the same tag or its parent; hidden folders are
 * always kept; a bridge that cannot read its settings hides everything; unreadable `own` rules are kept only by
 * such a bridge.
 */
export function rulesNotKept(own: PrivacyRules, bridge: PrivacyRules, identity: PathKey): string[] {
	if (bridge.unreadable !== undefined) return [];
	if (own.unreadable !== undefined) return ["every note (this side cannot read the privacy settings)"];
	const bridgeFolders = bridge.folders
		.map(normaliseFolder)
		.filter((folder) => folder !== "")
		.map((folder) => identity.key(folder));
	const bridgeTags = bridge.tags.map(normaliseTag).filter((tag) => tag !== "");
	const missing: string[] = [];
	for (const folder of own.folders.map(normaliseFolder)) {
		if (folder === "" || isHidden(folder)) continue;
		const key = identity.key(folder);
		if (!bridgeFolders.some((kept) => key === kept || key.startsWith(`${kept}/`)))
			missing.push(`the folder "${folder}"`);
	}
	for (const tag of own.tags.map(normaliseTag)) {
		if (tag === "") continue;
		if (!bridgeTags.some((kept) => tag === kept || tag.startsWith(`${kept}/`))) missing.push(`the tag "#${tag}"`);
	}
	return [...new Set(missing)];
}

function isStringList(value: unknown): value is string[] {
	return Array.isArray(value) && value.every((entry) => typeof entry === "string");
}
