import type { VaultLocation, VaultPaths } from "../vault-paths";

/**
 * A hard link to a private note placed outside the private folder is the same file under a public name, and the
 * other names of a file cannot be found cheaply. Such a file is served (its public name is all the rules can see),
 * and the first time each one is served a warning names it, so the user can see it and remove the link.
 */
export class HardLinkWarnings {
	private readonly warned = new Set<string>();

	constructor(
		private readonly paths: VaultPaths,
		private readonly warn: (message: string) => void,
	) {}

	check(location: VaultLocation): void {
		const path = location.realRelative ?? location.relative;
		if (this.warned.has(path)) return;
		const links = this.paths.linkCount(path);
		if (links === undefined || links <= 1) return;
		this.warned.add(path);
		this.warn(
			`Served ${path}, a file with ${links} hard links: if another of its names is in a private folder, its text is readable under this one (privacy rules see names, not files)`,
		);
	}
}
