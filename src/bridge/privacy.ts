import type { VaultLocation } from "./vault-paths";

export interface PrivacyRules {
	/** Vault-relative folders whose notes are never broadcast or read. */
	folders: string[];
	/** Tags (with or without #) whose notes are never broadcast or read; nested tags count. */
	tags: string[];
}

/** The parts of a location the rules look at: its path and, for a symbolic link, where it leads. */
export type PrivacySubject = Pick<VaultLocation, "relative" | "realRelative">;

/**
 * The one decision about what stays out of Claude's reach: notes in private folders, notes with private tags,
 * and anything in a hidden (dot) folder such as the vault's config folder, whose plugin settings can hold
 * secrets. `PrivacyBoundary` applies it to every port; nothing else should ask.
 */
export class PrivacyFilter {
	constructor(
		private readonly rules: () => PrivacyRules,
		private readonly tagsOf: (relativePath: string) => readonly string[],
	) {}

	/** A symbolic link inside the vault is private when either its own path or its target is. */
	isPrivate(location: PrivacySubject): boolean {
		if (this.isPrivatePath(location.relative)) return true;
		return location.realRelative !== undefined && this.isPrivatePath(location.realRelative);
	}

	private isPrivatePath(relativePath: string): boolean {
		if (isHidden(relativePath)) return true;
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
}

/** Dot-folders and dot-files: the Obsidian config folder, .git, .trash. */
export function isHidden(relativePath: string): boolean {
	return relativePath.split("/").some((segment) => segment.startsWith("."));
}

function normaliseFolder(folder: string): string {
	return folder.trim().replace(/\\/g, "/").replace(/^\/+|\/+$/g, "");
}

export function normaliseTag(tag: string): string {
	return tag.trim().replace(/^#/, "").toLowerCase();
}
