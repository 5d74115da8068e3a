import { FOLDED_PATH_KEY, normaliseUnicode, type PathKey } from "../path-identity";
import type { VaultLocation } from "../vault-paths";

export interface PrivacyRules {
	/** Vault-relative folders whose notes are never broadcast or read. */
	folders: string[];
	/** Tags (with or without #) whose notes are never broadcast or read; nested tags count. */
	tags: string[];
	/**
	 * Set when the settings that hold the rules cannot be read: why, as one sentence. Then every note counts as
	 * private (nothing is served that a rule might have hidden) until they can be read again.
	 */
	unreadable?: string;
}

/** The parts of a location the rules look at: its path and, for a symbolic link, where it leads. */
export type PrivacySubject = Pick<VaultLocation, "relative" | "realRelative">;

/**
 * A note's tags; `TAGS_NOT_KNOWN` (or undefined) while they are not known yet (Obsidian has not parsed the
 * note): such a note counts as private for as long as any tag rule is set.
 */
export type TagsOf = (relativePath: string) => readonly string[] | undefined;

/** The answer of a `TagsOf` for a note whose tags are not known yet; recognised by identity, it holds no tag. */
export const TAGS_NOT_KNOWN: readonly string[] = Object.freeze([]);

/**
 * The one decision about what stays out of Claude's reach: notes in private folders, notes with private tags,
 * and anything in a hidden (dot) folder such as the vault's config folder, whose plugin settings can hold
 * secrets; every note while the rules cannot be read (`PrivacyRules.unreadable`). `VaultPrivacy` (the one
 * boundary) builds it and applies it to every port; nothing else should ask.
 *
 * Paths and folder rules are compared in one canonical identity (`identity`, normally `VaultPaths.identity`:
 * Unicode NFC, case-folded where the vault's volume is case-insensitive), so `SECRET/x.md` on such a volume and
 * a folder stored in NFD under a rule typed in NFC are private. Without an identity, case is always folded.
 */
export class PrivacyFilter {
	private canonicalRules:
		| {
				folders: string[];
				tags: string[];
				closed: boolean;
				fromFolders: string[];
				fromTags: string[];
				fromUnreadable: string | undefined;
		  }
		| undefined;

	constructor(
		private readonly rules: () => PrivacyRules,
		private readonly tagsOf: TagsOf,
		private readonly identity: PathKey = FOLDED_PATH_KEY,
	) {}

	/** A symbolic link inside the vault is private when either its own path or its target is. */
	isPrivate(location: PrivacySubject): boolean {
		if (this.isPrivatePath(location.relative, true)) return true;
		return location.realRelative !== undefined && this.isPrivatePath(location.realRelative, true);
	}

	/**
	 * The decision for a vault-relative path as listed by the vault's own index (the vault tools' `isPrivate`).
	 * A path from the wire must go through `VaultPaths.resolve` first and be judged with `isPrivate`, so that a
	 * symbolic link is judged by where it leads.
	 */
	isPrivateRelative(relativePath: string): boolean {
		return this.isPrivatePath(relativePath, true);
	}

	/**
	 * A value that stays the same (===) for as long as `isPrivateRelative` gives every path the answer it gave: the
	 * rules in force, while none of them is a tag rule (a note's tags can change with its text); undefined when an
	 * answer can change without the rules changing.
	 */
	pathOnlyDecisions(): object | undefined {
		const rules = this.canonical();
		return rules.tags.length === 0 ? rules : undefined;
	}

	/** Hidden, or inside a private folder: the rules that need no file (for paths that may not exist, such as link targets). */
	isInPrivateFolder(relativePath: string): boolean {
		return this.isPrivatePath(relativePath, false);
	}

	/** The decision for a path whose note holds these tags (read from a text about to be, or just, written). */
	isPrivateWithTags(relativePath: string, noteTags: readonly string[]): boolean {
		return this.isPrivatePath(relativePath, true, noteTags);
	}

	private isPrivatePath(relativePath: string, withTags: boolean, knownTags?: readonly string[]): boolean {
		if (isHidden(relativePath)) return true;
		const { folders, tags, closed } = this.canonical();
		if (closed) return true;
		// Keying normalises Unicode (and folds case): worth it only when there is a folder rule to compare with.
		if (folders.length > 0) {
			const key = this.identity.key(relativePath);
			if (folders.some((prefix) => key === prefix || key.startsWith(`${prefix}/`))) return true;
		}
		if (!withTags || tags.length === 0) return false;
		const noteTags = knownTags ?? this.tagsOf(relativePath);
		if (noteTags === undefined || noteTags === TAGS_NOT_KNOWN) return true;
		return noteTags
			.map(normaliseTag)
			.some((tag) => tags.some((rule) => tag === rule || tag.startsWith(`${rule}/`)));
	}

	/**
	 * Whether a search of this vault-relative folder could meet a private note: the vault's top (the config folder is
	 * there), a private folder inside it or around it, any private tag (a tagged note can be anywhere), or rules
	 * that cannot be read.
	 */
	mayHoldPrivate(relativeFolder: string): boolean {
		const { folders, tags, closed } = this.canonical();
		const folder = normaliseFolder(relativeFolder);
		if (closed || tags.length > 0 || folder === "") return true;
		const key = this.identity.key(folder);
		return folders.some((prefix) => prefix === key || prefix.startsWith(`${key}/`) || key.startsWith(`${prefix}/`));
	}

	/** The rules in the canonical identity, recomputed only when the settings change (compared item by item: cheap, and safe against edits in place). */
	private canonical(): { folders: string[]; tags: string[]; closed: boolean } {
		const { folders, tags, unreadable } = this.rules();
		const last = this.canonicalRules;
		if (
			last &&
			last.fromUnreadable === unreadable &&
			sameItems(last.fromFolders, folders) &&
			sameItems(last.fromTags, tags)
		)
			return last;
		this.canonicalRules = {
			folders: folders
				.map(normaliseFolder)
				.filter((folder) => folder !== "")
				.map((folder) => this.identity.key(folder)),
			tags: tags.map(normaliseTag).filter((tag) => tag !== ""),
			closed: unreadable !== undefined,
			fromFolders: [...folders],
			fromTags: [...tags],
			fromUnreadable: unreadable,
		};
		return this.canonicalRules;
	}
}

/** Asked for every path of every listing: a plain loop, since a callback would allocate on each call. */
function sameItems(a: readonly string[], b: readonly string[]): boolean {
	if (a.length !== b.length) return false;
	for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
	return true;
}

/** Dot-folders and dot-files: the Obsidian config folder, .git, .trash. */
export function isHidden(relativePath: string): boolean {
	// A path part starts with a dot: the first, or one after a slash (without splitting: asked for every note).
	return relativePath.startsWith(".") || relativePath.includes("/.");
}

/** A folder rule as typed: slashes either way, no leading or trailing slash, surrounding spaces ignored. */
export function normaliseFolder(folder: string): string {
	return folder
		.trim()
		.replace(/\\/g, "/")
		.replace(/^\/+|\/+$/g, "");
}

/** Tags compare without `#`, case-insensitively (as Obsidian does) and in NFC. */
export function normaliseTag(tag: string): string {
	return normaliseUnicode(tag.trim().replace(/^#/, "")).toLowerCase();
}
