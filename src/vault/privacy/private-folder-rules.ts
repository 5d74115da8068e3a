import { FOLDED_PATH_KEY, foldCase, type PathKey } from "../path-identity";
import { normaliseFolder } from "./privacy";

/** A private-folder rule that names no folder of the vault, and the folder it probably meant. */
export interface UnmatchedFolderRule {
	rule: string;
	/** A folder whose name differs from the rule only in case (on a case-sensitive volume the rule misses it). */
	didYouMean?: string;
}

/**
 * The private-folder rules that match no folder, compared in the vault's path identity (`VaultPaths.identity`:
 * NFC, case-folded where the volume is case-insensitive). Such a rule protects nothing, silently: a typo, or
 * `secret` for a folder `Secret` on a case-sensitive volume. Empty rules are ignored.
 */
export function unmatchedFolderRules(
	rules: readonly string[],
	folders: Iterable<string>,
	identity: PathKey = FOLDED_PATH_KEY,
): UnmatchedFolderRule[] {
	const known = new Set<string>();
	const folded = new Map<string, string>();
	for (const folder of folders) {
		known.add(identity.key(folder));
		if (!folded.has(foldCase(folder))) folded.set(foldCase(folder), folder);
	}
	const unmatched: UnmatchedFolderRule[] = [];
	for (const rule of rules) {
		const folder = normaliseFolder(rule);
		if (folder === "" || known.has(identity.key(folder))) continue;
		const didYouMean = folded.get(foldCase(folder));
		unmatched.push(didYouMean === undefined ? { rule } : { rule, didYouMean });
	}
	return unmatched;
}

/** Every folder that holds one of these files (vault-relative paths), at any depth. */
export function foldersOfFiles(filePaths: Iterable<string>): Set<string> {
	const folders = new Set<string>();
	for (const path of filePaths) {
		for (let slash = path.lastIndexOf("/"); slash > 0; slash = path.lastIndexOf("/", slash - 1)) {
			const folder = path.slice(0, slash);
			if (folders.has(folder)) break;
			folders.add(folder);
		}
	}
	return folders;
}

/** The warning shown under the private-folders setting (and by the headless doctor), or undefined when every rule matches. */
export function describeUnmatchedFolderRules(unmatched: readonly UnmatchedFolderRule[]): string | undefined {
	if (unmatched.length === 0) return undefined;
	const parts = unmatched.map((entry) =>
		entry.didYouMean === undefined ? `"${entry.rule}"` : `"${entry.rule}" (did you mean "${entry.didYouMean}"?)`,
	);
	const subject =
		unmatched.length === 1
			? "This private folder rule matches no folder of the vault, so it protects nothing"
			: "These private folder rules match no folder of the vault, so they protect nothing";
	return `${subject}: ${parts.join(", ")}.`;
}
