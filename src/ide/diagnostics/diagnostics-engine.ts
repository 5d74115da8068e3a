import type { Diagnostic, NoteDiagnostics } from "./diagnostic-types";
import type { NoteFacts } from "../../vault/markdown/note-model";
import type { DiagnosticsNotes } from "../../vault/notes/notes";
import { diagnoseNote } from "./rules/diagnose-note";
import type { RuleContext } from "./rules/rule";
import { blockKey, headingKey } from "../../vault/markdown/subpath-match";

interface CachedNote {
	metadata: NoteFacts;
	/** The note's headings and block ids, normalised: other notes' results depend on these only. */
	anchors: string;
	/** The vault state the diagnostics were computed for; see `generation()`. */
	generation: string;
	diagnostics: Diagnostic[];
}

/**
 * Runs the rules over the notes (`DiagnosticsNotes`) and keeps each note's diagnostics until something they depend on changes:
 * the note itself, the set of files (link resolution), or any note's headings or block ids (link subpaths).
 * A warm whole-vault call therefore only walks the cache.
 */
export class DiagnosticsEngine {
	private readonly cache = new Map<string, CachedNote>();
	private anchorsVersion = 0;
	private readonly context: RuleContext;

	constructor(private readonly source: DiagnosticsNotes) {
		this.context = {
			resolveLink: (linkpath, sourcePath) => source.resolveLink(linkpath, sourcePath),
			factsOf: (path) => source.facts(path),
			hasSubpath: (targetPath, subpath) => source.hasSubpath?.(targetPath, subpath),
			isHiddenLinkTarget: (linkpath, sourcePath, target) =>
				source.isHiddenLinkTarget?.(linkpath, sourcePath, target) ?? false,
		};
	}

	/** The diagnostics of one note, computed fresh; [] when the path is not a note. */
	async forNote(path: string): Promise<Diagnostic[]> {
		await this.source.refreshNote(path);
		const metadata = this.source.facts(path);
		return metadata ? diagnoseNote(metadata, this.context) : [];
	}

	/** What the last answer about `path` (or the whole vault) could not cover, as the source says; see DiagnosticsNotes. */
	indexingNotice(path?: string): string | undefined {
		return this.source.indexingNotice?.(path);
	}

	/** Every note that has diagnostics, sorted by path. With a paced source, long runs yield between slices. */
	async forVault(): Promise<NoteDiagnostics[]> {
		await this.source.refresh();
		const pace = this.source.pace;
		let sliceStart = pace?.now() ?? 0;
		// Undefined when there is no need to yield, so an unpaced run (the headless host) never awaits per note.
		const breathe = (): Promise<void> | undefined => {
			if (!pace || pace.now() - sliceStart < pace.sliceMs) return undefined;
			return pace.yieldToMain().then(() => {
				sliceStart = pace.now();
			});
		};
		const paths = await this.collectChanges(breathe);
		const generation = `${this.source.structureVersion}:${this.anchorsVersion}`;
		const results: NoteDiagnostics[] = [];
		for (const path of paths) {
			const entry = this.cache.get(path);
			if (!entry) continue;
			if (entry.generation !== generation) {
				entry.diagnostics = diagnoseNote(entry.metadata, this.context);
				entry.generation = generation;
				const pause = breathe();
				if (pause) await pause;
			}
			if (entry.diagnostics.length > 0) results.push({ path, diagnostics: entry.diagnostics });
		}
		return results.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
	}

	/** Updates the cache from the source; bumps the anchors version when any note's headings or block ids changed. */
	private async collectChanges(breathe: () => Promise<void> | undefined): Promise<string[]> {
		const paths: string[] = [];
		for (const path of [...this.source.notePaths()]) {
			const metadata = this.source.facts(path);
			if (!metadata) continue;
			paths.push(path);
			const entry = this.cache.get(path);
			if (entry?.metadata === metadata) continue;
			const anchors = anchorsOf(metadata);
			if (entry?.anchors !== anchors) this.anchorsVersion++;
			this.cache.set(path, { metadata, anchors, generation: "", diagnostics: [] });
			const pause = breathe();
			if (pause) await pause;
		}
		if (this.cache.size > paths.length) {
			const present = new Set(paths);
			for (const path of this.cache.keys()) if (!present.has(path)) this.cache.delete(path);
			this.anchorsVersion++;
		}
		return paths;
	}
}

function anchorsOf(metadata: NoteFacts): string {
	const headings = metadata.headings.map((heading) => headingKey(heading.text)).join("\n");
	const blocks = metadata.blockIds.map((block) => blockKey(block.id)).join("\n");
	return `${headings}\0${blocks}`;
}
