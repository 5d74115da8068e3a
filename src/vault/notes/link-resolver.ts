/**
 * Every file of the vault by lower-cased name, kept up to date file by file, to resolve links the way
 * Obsidian does without scanning the vault. Obsidian matches link paths case-insensitively, lets Markdown
 * links and wikilinks omit `.md`, and finds a bare name anywhere in the vault.
 */
export class LinkResolver<V = undefined> {
	/** Every file, with what its owner keeps for it (`add`): one table for both (at 100k notes, one insert a file). */
	protected readonly files = new Map<string, V | undefined>();
	/**
	 * Lower-cased file name, and for notes also the name without `.md` → paths. A name most files do not share is kept
	 * as the one path, not a list (a 100k-note vault: 200k lists fewer). Made when a link is first resolved, not while
	 * the folder is listed: a search or a tags overview resolves none (at 100k notes, a fifth of a first search's CPU).
	 */
	private byNameMade: Map<string, string | string[]> | undefined;
	/** Counts additions and removals: link resolution may change when it does. */
	private changes = 0;
	/** First choices by link path and linking folder, for the set of files of version `resolvedAt`. */
	private readonly resolved = new Map<string, string | undefined>();
	private resolvedAt = 0;

	get version(): number {
		return this.changes;
	}

	get size(): number {
		return this.files.size;
	}

	has(path: string): boolean {
		return this.files.has(path);
	}

	/** Adds a file, with what its owner keeps for it; a file already there keeps its value (false). */
	add(path: string, value?: V): boolean {
		if (this.files.has(path)) return false;
		this.files.set(path, value);
		if (this.byNameMade) addNames(this.byNameMade, path);
		this.changes++;
		return true;
	}

	/** `byNameMade`, made now if it is not yet. */
	private get byName(): Map<string, string | string[]> {
		if (!this.byNameMade) {
			const byName = new Map<string, string | string[]>();
			for (const path of this.files.keys()) addNames(byName, path);
			this.byNameMade = byName;
		}
		return this.byNameMade;
	}

	/** The paths with this name key. */
	private named(key: string): readonly string[] {
		const known = this.lookUp(key);
		return known === undefined ? [] : typeof known === "string" ? [known] : known;
	}

	/** The paths with this name key, as the index by name holds them (a subclass may find a few without it). */
	protected lookUp(key: string): string | string[] | undefined {
		return this.byName.get(key);
	}

	remove(path: string): void {
		if (!this.files.delete(path)) return;
		this.changes++;
		if (!this.byNameMade) return;
		for (const key of nameKeys(path)) {
			const list = this.named(key).filter((candidate) => candidate !== path);
			if (list.length > 1) this.byName.set(key, list);
			else if (list.length === 1) this.byName.set(key, list[0]);
			else this.byName.delete(key);
		}
	}

	paths(): IterableIterator<string> {
		return this.files.keys();
	}

	/**
	 * The vault path a link path leads to from `sourcePath`, or undefined when nothing matches.
	 * Order: an exact vault path; a path relative to the source's folder; then any file whose path ends with
	 * the link path, preferring the source's folder, then the shortest path, then alphabetical order.
	 * With `exists`, only the files it accepts take part: the answer is the one in a vault without the others
	 * (so a private note never shadows a public one).
	 */
	resolve(linkpath: string, sourcePath: string, exists?: (path: string) => boolean): string | undefined {
		const first = this.firstChoice(linkpath, sourcePath);
		// Removing other files cannot change a first choice `exists` accepts: one question in the common case.
		if (first === undefined || !exists || exists(first)) return first;
		return this.resolveAmong(linkpath, sourcePath, exists);
	}

	/**
	 * `resolveAmong` over every file, kept until a file is added or removed: the answer depends on nothing else than
	 * the link path and the linking note's folder (a note's links are checked on every getDiagnostics of it).
	 */
	private firstChoice(linkpath: string, sourcePath: string): string | undefined {
		if (linkpath === "") return this.resolveAmong(linkpath, sourcePath);
		// A bare name (most links) that one file has leads to that file from any folder: no key to make, nothing to keep.
		if (!linkpath.includes("/") && !linkpath.includes("\\") && linkpath !== "." && linkpath !== "..") {
			const named = this.lookUp(linkpath.toLowerCase());
			if (named === undefined || typeof named === "string") return named;
		}
		const exact = this.exactPathChoice(linkpath, sourcePath);
		if (exact !== undefined) return exact;
		if (this.resolvedAt !== this.changes || this.resolved.size >= MAX_RESOLVED) {
			this.resolved.clear();
			this.resolvedAt = this.changes;
		}
		const key = `${folderOf(sourcePath)}\0${linkpath}`;
		if (this.resolved.has(key)) return this.resolved.get(key);
		const first = this.resolveAmong(linkpath, sourcePath);
		this.resolved.set(key, first);
		return first;
	}

	/**
	 * The answer for a link path that spells one file's whole path (from the vault's top, or from the source's folder
	 * after `./`), in any case, with or without `.md`, when that file alone has its name: `resolveAmong` finds exactly
	 * that file. Undefined when the link path is not that plain (`..`, `/` first, backslashes, empty parts) or another
	 * answer is possible: then `resolveAmong` decides. Most links written with a folder are like this, and a 100k-note
	 * vault has too many of them to keep each answer.
	 */
	private exactPathChoice(linkpath: string, sourcePath: string): string | undefined {
		let wanted = linkpath;
		if (wanted.startsWith("./")) {
			const folder = folderOf(sourcePath);
			wanted = folder === "" ? wanted.slice(2) : `${folder}/${wanted.slice(2)}`;
		}
		if (
			wanted.startsWith("/") ||
			wanted.startsWith(".") ||
			wanted.endsWith("/") ||
			wanted.includes("/.") ||
			wanted.includes("//") ||
			wanted.includes("\\")
		)
			return undefined;
		const lower = wanted.toLowerCase();
		const only = this.lookUp(lower.slice(lower.lastIndexOf("/") + 1));
		if (typeof only !== "string") return undefined;
		const onlyLower = only.toLowerCase();
		return onlyLower === lower || (onlyLower.endsWith(".md") && onlyLower.slice(0, -3) === lower)
			? only
			: undefined;
	}

	private resolveAmong(linkpath: string, sourcePath: string, exists?: (path: string) => boolean): string | undefined {
		if (linkpath === "")
			return this.files.has(sourcePath) && (exists?.(sourcePath) ?? true) ? sourcePath : undefined;
		const wanted = linkpath.replace(/\\/g, "/");
		const folder = folderOf(sourcePath);
		const rootRelative = wanted.startsWith("/");
		const relativeToSource = /^\.\.?\//.test(wanted);
		const normalised = normalisePath(
			rootRelative ? wanted.slice(1) : relativeToSource ? join(folder, wanted) : wanted,
		);
		if (normalised === undefined) return undefined;
		const lower = normalised.toLowerCase();
		const name = lower.slice(lower.lastIndexOf("/") + 1);
		const named = this.named(name);
		const candidates = exists ? named.filter(exists) : named;
		if (candidates.length === 0) return undefined;
		const exact = candidates.filter((path) => pathKeys(path).includes(lower));
		if (exact.length > 0 || rootRelative || relativeToSource) return pickClosest(exact, folder);
		const fromSourceFolder = folder === "" ? lower : `${folder.toLowerCase()}/${lower}`;
		const besideSource = candidates.filter((path) => pathKeys(path).includes(fromSourceFolder));
		if (besideSource.length > 0) return pickClosest(besideSource, folder);
		if (!lower.includes("/")) return pickClosest(candidates, folder);
		return pickClosest(
			candidates.filter((path) => pathKeys(path).some((key) => key.endsWith(`/${lower}`))),
			folder,
		);
	}
}

/** How many first choices are kept at most (then they are dropped and found again). */
const MAX_RESOLVED = 20_000;

/** Files the path under its name keys (`nameKeys`). */
function addNames(byName: Map<string, string | string[]>, path: string): void {
	const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
	addName(byName, name, path);
	if (name.endsWith(".md")) addName(byName, name.slice(0, -3), path);
}

function addName(byName: Map<string, string | string[]>, key: string, path: string): void {
	const known = byName.get(key);
	if (known === undefined) byName.set(key, path);
	else if (typeof known === "string") byName.set(key, [known, path]);
	else known.push(path);
}

export function nameKeys(path: string): string[] {
	const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
	return name.endsWith(".md") ? [name, name.slice(0, -3)] : [name];
}

function pathKeys(path: string): string[] {
	const lower = path.toLowerCase();
	return lower.endsWith(".md") ? [lower, lower.slice(0, -3)] : [lower];
}

function pickClosest(paths: readonly string[], folder: string): string | undefined {
	if (paths.length <= 1) return paths[0];
	return [...paths].sort((a, b) => {
		const aHere = folderOf(a) === folder ? 0 : 1;
		const bHere = folderOf(b) === folder ? 0 : 1;
		return aHere - bHere || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
	})[0];
}

export function folderOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash < 0 ? "" : path.slice(0, slash);
}

function join(folder: string, relative: string): string {
	return folder === "" ? relative : `${folder}/${relative}`;
}

/** Resolves `.` and `..` segments; undefined when `..` climbs above the vault root. */
export function normalisePath(path: string): string | undefined {
	if (!path.includes("/")) return path === ".." ? undefined : path === "." ? "" : path;
	const parts: string[] = [];
	for (const part of path.split("/")) {
		if (part === "" || part === ".") continue;
		if (part === "..") {
			if (parts.length === 0) return undefined;
			parts.pop();
		} else {
			parts.push(part);
		}
	}
	return parts.join("/");
}
