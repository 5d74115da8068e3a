import type { NoteMetadata } from "./diagnostics/note-metadata";
import type { NoteSource, WorkPace } from "./diagnostics/note-source";
import { isHidden, type PrivacyFilter, type PrivacySubject } from "./privacy";
import type { SelectionSnapshot } from "./selection";
import { RefusedPathError, type VaultFileEntry, type VaultFilesPort } from "./vault-adapter";
import { VaultPathError, type VaultLocation, type VaultPaths } from "./vault-paths";
import type { OpenEditor, OpenNoteOptions, WorkspacePort } from "./workspace/workspace-port";

/**
 * Privacy applied once, where the ports enter the core: each wrapper hides private notes (see `PrivacyFilter`)
 * before any tool, method, resource or notification sees the port, so none of them can forget the rule.
 * A private note looks like a note that does not exist, except to `files/read` and `resources/read`, which
 * say that they refuse it.
 */
export class PrivacyBoundary {
	constructor(
		private readonly paths: VaultPaths,
		private readonly privacy: PrivacyFilter,
	) {}

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

	/** A text reader (openFile's) that answers "no such note" for private ones. */
	textReader(read: (absolutePath: string) => Promise<string | undefined>): (absolutePath: string) => Promise<string | undefined> {
		return (absolutePath) => (this.isPrivatePath(absolutePath) ? Promise.resolve(undefined) : read(absolutePath));
	}

	workspace(port: WorkspacePort): WorkspacePort {
		return new PrivateWorkspace(port, this.privacy, this.selection(() => port.currentSelection()));
	}

	files(port: VaultFilesPort): VaultFilesPort {
		return new PrivateFiles(port, this.privacy, (relativePath) => this.locate(relativePath));
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

/** Private files are not listed, and reading them is refused with a message that says why. */
class PrivateFiles implements VaultFilesPort {
	constructor(
		private readonly port: VaultFilesPort,
		private readonly privacy: PrivacyFilter,
		private readonly locate: (relativePath: string) => VaultLocation | undefined,
	) {}

	async list(): Promise<VaultFileEntry[]> {
		// Listed paths come from the vault's own index, which does not follow symbolic links: judged as listed.
		return (await this.port.list()).filter((entry) => !this.privacy.isPrivate({ relative: entry.path }));
	}

	stat(relativePath: string): Promise<{ size: number } | undefined> {
		const refusal = this.refusal(relativePath);
		return refusal ? Promise.reject(refusal) : this.port.stat(relativePath);
	}

	readBytes(relativePath: string): Promise<Uint8Array> {
		const refusal = this.refusal(relativePath);
		return refusal ? Promise.reject(refusal) : this.port.readBytes(relativePath);
	}

	private refusal(relativePath: string): RefusedPathError | undefined {
		const location: PrivacySubject = this.locate(relativePath) ?? { relative: relativePath };
		if (!this.privacy.isPrivate(location)) return undefined;
		// Only the wording depends on why: the decision is the filter's.
		const hidden = isHidden(location.relative) || (location.realRelative !== undefined && isHidden(location.realRelative));
		return new RefusedPathError(
			hidden
				? `Refused: ${relativePath} is in a hidden folder (such as the vault's config folder, which can hold plugin secrets)`
				: `Refused: ${relativePath} is private (excluded in the Claude Code Bridge settings)`,
		);
	}
}

/** Private notes are not notes to the diagnostics: not listed, no metadata, so links into them reveal nothing of them. */
class PrivateNoteSource implements NoteSource {
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

	resolveLink(linkpath: string, sourcePath: string): string | undefined {
		return this.source.resolveLink(linkpath, sourcePath);
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
