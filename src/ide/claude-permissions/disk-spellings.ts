import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { PathKey } from "../../vault/path-identity";
import { VaultPaths } from "../../vault/vault-paths";
import { denyRulesFor, normaliseFolder, type DenyRuleSources, type DenyRules } from "./deny-rules";

/**
 * Each folder as typed plus every spelling under which the vault holds it, as the bridge's privacy rules match it
 * (the vault's path identity: NFC, case-folded on a case-insensitive volume). Claude Code compares a rule's path
 * as written, so a folder stored in NFD under a rule typed in NFC, or `Secret` under a rule `secret` on APFS or
 * NTFS, needs a rule in the disk's own spelling too. Folders not on disk keep only the typed spelling.
 */
export async function withDiskSpellings(
	vaultPath: string,
	folders: readonly string[],
	identity: PathKey,
): Promise<string[]> {
	const spellings: string[] = [];
	for (const folder of folders) {
		const typed = normaliseFolder(folder);
		if (typed === "") continue;
		spellings.push(typed);
		let found = [""];
		for (const segment of typed.split("/")) {
			const wanted = identity.key(segment);
			const next: string[] = [];
			for (const prefix of found) {
				const names = await fs.readdir(join(vaultPath, prefix)).catch(() => [] as string[]);
				for (const name of names)
					if (identity.key(name) === wanted) next.push(prefix === "" ? name : `${prefix}/${name}`);
			}
			found = next;
			if (found.length === 0) break;
		}
		spellings.push(...found);
	}
	return [...new Set(spellings)];
}

/** The deny rules for the vault as it is on disk: `denyRulesFor` over the folders' disk spellings. */
export async function denyRulesOnDisk(vaultPath: string, sources: DenyRuleSources): Promise<DenyRules> {
	const identity = new VaultPaths(vaultPath).identity;
	const [folders, configDirs] = await Promise.all([
		withDiskSpellings(vaultPath, sources.folders, identity),
		withDiskSpellings(vaultPath, sources.configDirs, identity),
	]);
	return denyRulesFor({ ...sources, folders, configDirs });
}
