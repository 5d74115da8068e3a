import type { NoteFacts } from "../markdown/note-model";
import { folderOf, normalisePath } from "../notes/link-resolver";
import type { DiagnosticsNotes, WorkPace } from "../notes/notes";
import type { PrivacyFilter } from "./privacy";

/** Private notes are not notes to the diagnostics: not listed, no metadata, so links into them reveal nothing of them. */
export class PrivateDiagnosticsNotes implements DiagnosticsNotes {
	private readonly isPublic = (path: string): boolean => !this.privacy.isPrivate({ relative: path });

	constructor(
		private readonly source: DiagnosticsNotes,
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

	facts(path: string): NoteFacts | undefined {
		return this.privacy.isPrivate({ relative: path }) ? undefined : this.source.facts(path);
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
		return this.privacy.isPrivate({ relative: targetPath })
			? undefined
			: this.source.hasSubpath?.(targetPath, subpath);
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
	const folder = folderOf(sourcePath);
	const fromFolder = folder === "" ? wanted : `${folder}/${wanted}`;
	const candidates = wanted.startsWith("/")
		? [wanted]
		: /^\.\.?\//.test(wanted)
			? [fromFolder]
			: [wanted, fromFolder];
	return candidates.map(normalisePath).filter((path): path is string => path !== undefined && path !== "");
}
