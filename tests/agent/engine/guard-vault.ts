import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "../../helpers/temp-dir";

/** The vault's config folder in the guard's tests (not `.obsidian`: any name works). */
export const CONFIG = ".vault-config";

/** A vault with a private folder, a tag-private note, the config folder and the trash. */
export function guardVault(): { root: string; remove: () => void } {
	const temp = makeTempDir("guard-vault");
	for (const folder of ["Secret", "Notes", CONFIG, ".trash"]) mkdirSync(join(temp.path, folder));
	writeFileSync(join(temp.path, "Notes", "Diary.md"), "#private\n");
	writeFileSync(join(temp.path, "Secret", "Plan.md"), "plan\n");
	return { root: temp.path, remove: temp.remove };
}

/** That vault's private places, as the bridge reports them (one folder that does not exist). */
export const GUARD_PLACES = {
	folders: ["Secret/", "Missing"],
	tags: ["private"],
	notes: ["Notes/Diary.md"],
	configFolder: CONFIG,
};
