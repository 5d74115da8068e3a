import { LinkResolver, nameKeys } from "../notes/link-resolver";

/** How many name keys are looked up by a pass over the files before the whole index by name is made. */
const LOOKUPS_BEFORE_INDEX = 8;

/**
 * The folder store's `LinkResolver`: the first few name keys asked are found by a pass over the files, each kept
 * while no file comes or goes, instead of making the index of every file by name. A later session's first backlinks
 * resolve only the links that may lead to one note (a name key or two): at 100k notes, no map of 200k names.
 */
export class FolderLinkResolver<V = undefined> extends LinkResolver<V> {
	/** The paths of the name keys looked up so far, for the files of version `lookedUpAt`. */
	private readonly lookedUp = new Map<string, string | string[] | undefined>();
	private lookedUpAt = -1;
	private lookups = 0;

	/** What the file was added with; undefined for a file not here (or added with nothing). */
	valueFor(path: string): V | undefined {
		return this.files.get(path);
	}

	/** Calls `each` with every file and what it was added with (no pair made per file). */
	forEachFile(each: (value: V | undefined, path: string) => void): void {
		this.files.forEach(each);
	}

	protected override lookUp(key: string): string | string[] | undefined {
		// Only this lookup makes the index by name (the resolver adds to it and removes from it once it is made).
		if (this.lookups >= LOOKUPS_BEFORE_INDEX) return super.lookUp(key);
		if (this.lookedUpAt !== this.version) {
			this.lookedUp.clear();
			this.lookedUpAt = this.version;
		}
		if (this.lookedUp.has(key)) return this.lookedUp.get(key);
		this.lookups++;
		const found: string[] = [];
		for (const path of this.paths()) {
			// Lower-casing never makes a name shorter: a name longer than the key and `.md` cannot have it.
			if (path.length - path.lastIndexOf("/") - 1 > key.length + 3) continue;
			if (nameKeys(path).includes(key)) found.push(path);
		}
		const value = found.length === 0 ? undefined : found.length === 1 ? found[0] : found;
		this.lookedUp.set(key, value);
		return value;
	}
}
