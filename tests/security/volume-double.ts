import { posix } from "node:path";
import type { PathFileSystem } from "../../src/vault/path-identity";

export interface VolumeBehaviour {
	/** `Secret` and `SECRET` name the same entry. */
	caseInsensitive: boolean;
	/** NFC and NFD spellings of a name name the same entry (APFS, HFS+). */
	normalisationInsensitive: boolean;
	/** realpath answers the spelling stored on disk (APFS, NTFS) rather than the one typed (Linux casefold, SMB, FUSE). */
	realpathGivesStoredSpelling: boolean;
}

/** APFS (macOS default): case-insensitive, case-preserving, normalisation-insensitive; realpath gives the stored name. */
export const APFS: VolumeBehaviour = {
	caseInsensitive: true,
	normalisationInsensitive: true,
	realpathGivesStoredSpelling: true,
};
/** NTFS (Windows default): case-insensitive, case-preserving; names are UTF-16 as given (no normalisation); realpath gives the stored case. */
export const NTFS: VolumeBehaviour = {
	caseInsensitive: true,
	normalisationInsensitive: false,
	realpathGivesStoredSpelling: true,
};
/** A case-insensitive mount whose realpath keeps the typed case (Linux casefold, vfat, SMB, FUSE): the case the issue reproduced. */
export const TYPED_CASE_INSENSITIVE: VolumeBehaviour = {
	caseInsensitive: true,
	normalisationInsensitive: true,
	realpathGivesStoredSpelling: false,
};
/** ext4 without casefold: every byte counts. */
export const CASE_SENSITIVE: VolumeBehaviour = {
	caseInsensitive: false,
	normalisationInsensitive: false,
	realpathGivesStoredSpelling: true,
};

/**
 * A file-system double answering `PathFileSystem` as the volume described would: names are looked up the way that
 * volume compares them, and realpath answers the stored spelling or the typed one. Files are given as absolute
 * POSIX paths; their folders exist implicitly. No symbolic links (those are tested on the real file system).
 */
export class VolumeDouble implements PathFileSystem {
	private readonly entries = new Set<string>(["/"]);

	constructor(
		private readonly behaviour: VolumeBehaviour,
		files: string[],
	) {
		for (const file of files) {
			for (let path = file; path !== "/"; path = posix.dirname(path)) this.entries.add(path);
		}
	}

	realpath(path: string): string | undefined {
		const stored = this.lookup(path);
		if (stored === undefined) return undefined;
		return this.behaviour.realpathGivesStoredSpelling ? stored : posix.normalize(path);
	}

	isSymbolicLink(): boolean {
		return false;
	}

	fileId(path: string): string | undefined {
		return this.lookup(path);
	}

	names(folder: string): string[] {
		const stored = this.lookup(folder);
		if (stored === undefined) return [];
		return [...this.entries]
			.filter((entry) => entry !== "/" && posix.dirname(entry) === stored)
			.map((entry) => posix.basename(entry));
	}

	linkCount(path: string): number | undefined {
		return this.lookup(path) === undefined ? undefined : 1;
	}

	/** The stored spelling of `path`, segment by segment, or undefined when some segment names nothing. */
	private lookup(path: string): string | undefined {
		let current = "/";
		for (const segment of posix
			.normalize(path)
			.split("/")
			.filter((part) => part !== "")) {
			const children = [...this.entries].filter((entry) => entry !== "/" && posix.dirname(entry) === current);
			const match = children.find((child) => this.same(posix.basename(child), segment));
			if (match === undefined) return undefined;
			current = match;
		}
		return current;
	}

	private same(stored: string, typed: string): boolean {
		const form = (name: string): string => {
			const normalised = this.behaviour.normalisationInsensitive ? name.normalize("NFD") : name;
			return this.behaviour.caseInsensitive ? normalised.toLowerCase() : normalised;
		};
		return form(stored) === form(typed);
	}
}
