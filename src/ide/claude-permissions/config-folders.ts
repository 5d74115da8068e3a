import { promises as fs } from "node:fs";
import { join } from "node:path";

/**
 * The vault's Obsidian config folders, for a host that is not Obsidian (which knows its own `Vault#configDir`):
 * dot folders at the vault's top that hold Obsidian's `app.json` or a `plugins` folder. Users can rename the config
 * folder, and a synced vault can carry one per device, so the name is not assumed.
 */
export async function findConfigFolders(vaultPath: string): Promise<string[]> {
	let entries;
	try {
		entries = await fs.readdir(vaultPath, { withFileTypes: true });
	} catch {
		return [];
	}
	const found: string[] = [];
	for (const entry of entries) {
		if (!entry.isDirectory() || !entry.name.startsWith(".") || entry.name === ".trash") continue;
		const inside = await fs.readdir(join(vaultPath, entry.name)).catch(() => [] as string[]);
		if (inside.includes("app.json") || inside.includes("plugins")) found.push(entry.name);
	}
	return found.sort();
}
