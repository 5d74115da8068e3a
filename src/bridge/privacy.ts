import { VaultPathError, type VaultPaths } from "./vault-paths";

export interface PrivacyRules {
	/** Vault-relative folders whose notes are never broadcast or read. */
	folders: string[];
	/** Tags (with or without #) whose notes are never broadcast or read; nested tags count. */
	tags: string[];
}

/** Decides which notes stay private: never sent in `selection_changed`, never readable through `files/read` or `resources/*`. */
export class PrivacyFilter {
	constructor(
		private readonly paths: VaultPaths,
		private readonly rules: () => PrivacyRules,
		private readonly tagsOf: (relativePath: string) => readonly string[],
	) {}

	isPrivateRelative(relativePath: string): boolean {
		const { folders, tags } = this.rules();
		const inFolder = folders.some((folder) => {
			const prefix = normaliseFolder(folder);
			return prefix !== "" && (relativePath === prefix || relativePath.startsWith(`${prefix}/`));
		});
		if (inFolder) return true;
		if (tags.length === 0) return false;
		const wanted = tags.map(normaliseTag).filter((tag) => tag !== "");
		return this.tagsOf(relativePath)
			.map(normaliseTag)
			.some((tag) => wanted.some((rule) => tag === rule || tag.startsWith(`${rule}/`)));
	}

	/** For wire paths; anything outside the vault counts as private. */
	isPrivateAbsolute(absolutePath: string): boolean {
		try {
			const location = this.paths.resolve(absolutePath);
			// A symbolic link inside the vault is private when either its own path or its target is.
			return this.isPrivateRelative(location.relative) || (location.realRelative !== undefined && this.isPrivateRelative(location.realRelative));
		} catch (error) {
			if (error instanceof VaultPathError) return true;
			throw error;
		}
	}
}

function normaliseFolder(folder: string): string {
	return folder.trim().replace(/\\/g, "/").replace(/^\/+|\/+$/g, "");
}

export function normaliseTag(tag: string): string {
	return tag.trim().replace(/^#/, "").toLowerCase();
}
