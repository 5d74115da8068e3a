import type { NoteMetadata } from "./diagnostics/note-metadata";
import type { NoteSource, WorkPace } from "./diagnostics/note-source";
import type { PrivacyFilter, PrivacySubject } from "./privacy";
import type { SelectionSnapshot } from "./selection";
import { RefusedPathError, type VaultFileEntry, type VaultFilesPort } from "./vault-adapter";
import { VaultPathError, type VaultLocation, type VaultPaths } from "./vault-paths";
import type { OpenEditor, OpenNoteOptions, WorkspacePort } from "./workspace/workspace-port";

/**
 * Privacy applied once, where the ports enter the core: each wrapper hides private notes (see `PrivacyFilter`)
 * before any tool, method, resource or notification sees the port, so none of them can forget the rule.
 * A private note looks like a note that does not exist, to every tool and method alike, in words and as far as
 * practical in time (the same lookups are made for both), so nothing tells whether a private note exists.
 */
export class PrivacyBoundary {
	private readonly hardLinks: HardLinkWarnings;

	constructor(
		private readonly paths: VaultPaths,
		private readonly privacy: PrivacyFilter,
		/** Where a warning about a served file with more than one hard link goes (see SECURITY.md). */
		warn: (message: string) => void = () => undefined,
	) {
		this.hardLinks = new HardLinkWarnings(paths, warn);
	}

	/** A path from the wire or the editor (absolute, vault-relative or file://); anything outside the vault counts as private. */
	isPrivatePath(path: string): boolean {
		const location = this.locate(path);
		return location === undefined || this.privacy.isPrivate(location);
	}

	/** A selection source that answers undefined (no active note) while the note is private. */
	selection(source: () => SelectionSnapshot | undefined): () => SelectionSnapshot | undefined {
		return () => {
			const snapshot = source();
			return snapshot && !this.isPrivatePath(snapshot.filePath) ? snapshot : undefined;
		};
	}

	/**
	 * A text reader (openFile's) that answers "no such note" for private ones, without reading them: openFile's
	 * `startText` search then never runs over a private note's text, so it is no oracle.
	 */
	textReader(read: (absolutePath: string) => Promise<string | undefined>): (absolutePath: string) => Promise<string | undefined> {
		return async (absolutePath) => {
			const location = this.locate(absolutePath);
			if (location === undefined || this.privacy.isPrivate(location)) return undefined;
			const text = await read(absolutePath);
			if (text !== undefined) this.hardLinks.check(location);
			return text;
		};
	}

	workspace(port: WorkspacePort): WorkspacePort {
		return new PrivateWorkspace(port, this.privacy, this.selection(() => port.currentSelection()));
	}

	files(port: VaultFilesPort): VaultFilesPort {
		return new PrivateFiles(port, this.privacy, (relativePath) => this.locate(relativePath), this.hardLinks);
	}

	notes(source: NoteSource): NoteSource {
		return new PrivateNoteSource(source, this.privacy);
	}

	private locate(path: string): VaultLocation | undefined {
		try {
			return this.paths.resolve(path);
		} catch (error) {
			if (error instanceof VaultPathError) return undefined;
			throw error;
		}
	}
}

/** Private notes are not open, not dirty, cannot be saved or opened, and have no selection. */
class PrivateWorkspace implements WorkspacePort {
	readonly headlessNote: string | undefined;

	constructor(
		private readonly port: WorkspacePort,
		private readonly privacy: PrivacyFilter,
		readonly currentSelection: () => SelectionSnapshot | undefined,
	) {
		this.headlessNote = port.headlessNote;
	}

	openNote(target: VaultLocation, options: OpenNoteOptions): Promise<void> {
		if (this.privacy.isPrivate(target)) return Promise.reject(new RefusedPathError(`Not found: ${target.relative}`));
		return this.port.openNote(target, options);
	}

	openEditors(): OpenEditor[] {
		return this.port.openEditors().filter((editor) => !this.privacy.isPrivate(editor.location));
	}

	isDirty(target: VaultLocation): Promise<boolean | undefined> {
		return this.privacy.isPrivate(target) ? Promise.resolve(undefined) : this.port.isDirty(target);
	}

	save(target: VaultLocation): Promise<boolean> {
		return this.privacy.isPrivate(target) ? Promise.resolve(false) : this.port.save(target);
	}
}

/**
 * Private files are not listed, and to `stat` they do not exist, exactly as a missing file does not: the port is
 * asked all the same (its answer dropped), so both take one lookup. `readBytes` of one fails as a missing file's would.
 */
class PrivateFiles implements VaultFilesPort {
	constructor(
		private readonly port: VaultFilesPort,
		private readonly privacy: PrivacyFilter,
		private readonly locate: (relativePath: string) => VaultLocation | undefined,
		private readonly hardLinks: HardLinkWarnings,
	) {}

	async list(): Promise<VaultFileEntry[]> {
		// Listed paths come from the vault's own index, which does not follow symbolic links: judged as listed.
		return (await this.port.list()).filter((entry) => !this.privacy.isPrivate({ relative: entry.path }));
	}

	async stat(relativePath: string): Promise<{ size: number } | undefined> {
		const hidden = this.isPrivate(relativePath);
		const stat = await this.port.stat(relativePath);
		return hidden ? undefined : stat;
	}

	readBytes(relativePath: string): Promise<Uint8Array> {
		const location = this.locate(relativePath);
		if (this.privacy.isPrivate(location ?? { relative: relativePath })) return Promise.reject(new RefusedPathError(`Not found: ${relativePath}`));
		if (location) this.hardLinks.check(location);
		return this.port.readBytes(relativePath);
	}

	private isPrivate(relativePath: string): boolean {
		const location: PrivacySubject = this.locate(relativePath) ?? { relative: relativePath };
		return this.privacy.isPrivate(location);
	}
}

/**
 * A hard link to a private note placed outside the private folder is the same file under a public name, and the
 * other names of a file cannot be found cheaply. Such a file is served (its public name is all the rules can see),
 * and the first time each one is served a warning names it, so the user can see it and remove the link.
 */
class HardLinkWarnings {
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
		this.warn(`Served ${path}, a file with ${links} hard links: if another of its names is in a private folder, its text is readable under this one (privacy rules see names, not files)`);
	}
}

/** Private notes are not notes to the diagnostics: not listed, no metadata, so links into them reveal nothing of them. */
class PrivateNoteSource implements NoteSource {
	private readonly isPublic = (path: string): boolean => !this.privacy.isPrivate({ relative: path });

	constructor(
		private readonly source: NoteSource,
		private readonly privacy: PrivacyFilter,
	) {}

	get structureVersion(): number {
		return this.source.structureVersion;
	}

	refresh(): Promise<void> {
		return this.source.refresh();
	}

	refreshNote(path: string): Promise<void> {
		return this.privacy.isPrivate({ relative: path }) ? Promise.resolve() : this.source.refreshNote(path);
	}

	*notePaths(): Iterable<string> {
		for (const path of this.source.notePaths()) if (!this.privacy.isPrivate({ relative: path })) yield path;
	}

	metadata(path: string): NoteMetadata | undefined {
		return this.privacy.isPrivate({ relative: path }) ? undefined : this.source.metadata(path);
	}

	/** Resolved as if private notes were not in the vault: a private note never shadows a public one of the same name. */
	resolveLink(linkpath: string, sourcePath: string): string | undefined {
		return this.source.resolveLink(linkpath, sourcePath, this.isPublic);
	}

	/**
	 * A link into a private note is not checked at all, whatever the note holds and whether it exists: one that
	 * leads to no public note (`target`, from `resolveLink`, which never answers a private note) but to a private
	 * one, and one whose path, read from the vault root or from the linking note's folder, lies in a private or
	 * hidden folder. A link that leads to a public note once private notes are set aside is checked against that
	 * note, as in a vault without them. (A bare name that resolves nowhere is still reported, as it must be for
	 * public notes; a bare name that resolves to a private note only is not, so such a name's existence can be told.)
	 */
	isHiddenLinkTarget(linkpath: string, sourcePath: string, target: string | undefined): boolean {
		if (target !== undefined) return false;
		const privateTarget = this.source.resolveLink(linkpath, sourcePath);
		if (privateTarget !== undefined && this.privacy.isPrivate({ relative: privateTarget })) return true;
		return lexicalTargets(linkpath, sourcePath).some((path) => this.privacy.isInPrivateFolder(path));
	}

	get pace(): WorkPace | undefined {
		return this.source.pace;
	}

	hasSubpath(targetPath: string, subpath: string): boolean | undefined {
		return this.privacy.isPrivate({ relative: targetPath }) ? undefined : this.source.hasSubpath?.(targetPath, subpath);
	}

	/** The source's notices name no note; one about a private note is not given at all. */
	indexingNotice(path?: string): string | undefined {
		if (path !== undefined && this.privacy.isPrivate({ relative: path })) return undefined;
		return this.source.indexingNotice?.(path);
	}
}

/** Where a link path may point, read as Obsidian may read it: from the vault root, and from the linking note's folder. */
function lexicalTargets(linkpath: string, sourcePath: string): string[] {
	const wanted = linkpath.replace(/\\/g, "/");
	const folder = sourcePath.includes("/") ? sourcePath.slice(0, sourcePath.lastIndexOf("/")) : "";
	const fromFolder = folder === "" ? wanted : `${folder}/${wanted}`;
	const candidates = wanted.startsWith("/") ? [wanted] : /^\.\.?\//.test(wanted) ? [fromFolder] : [wanted, fromFolder];
	return candidates.map(withoutDotSegments).filter((path): path is string => path !== undefined && path !== "");
}

/** Resolves `.` and `..`; undefined when `..` climbs above the vault root. */
function withoutDotSegments(path: string): string | undefined {
	const parts: string[] = [];
	for (const part of path.split("/")) {
		if (part === "" || part === ".") continue;
		if (part !== "..") parts.push(part);
		else if (parts.pop() === undefined) return undefined;
	}
	return parts.join("/");
}
