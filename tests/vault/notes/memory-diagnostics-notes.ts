import type { NoteFacts } from "../../../src/vault/markdown/note-model";
import { factsFromText } from "../../../src/vault/notes/note-facts";
import type { DiagnosticsNotes } from "../../../src/vault/notes/notes";
import { LinkResolver } from "../../../src/vault/notes/link-resolver";
import type { YamlCodec } from "../../../src/shared/yaml-codec";
import { libraryYamlCodec } from "../../../src/vault/folder/yaml-library-codec";

/** A vault held in memory: path → text (non-.md paths are attachments). Tests change it with `write`/`remove`. */
export class MemoryDiagnosticsNotes implements DiagnosticsNotes {
	private readonly index = new LinkResolver();
	private readonly notes = new Map<string, NoteFacts>();

	constructor(
		files: Record<string, string>,
		private readonly yaml: YamlCodec = libraryYamlCodec,
	) {
		for (const [path, text] of Object.entries(files)) this.write(path, text);
	}

	get structureVersion(): number {
		return this.index.version;
	}

	write(path: string, text: string): void {
		this.index.add(path);
		if (path.endsWith(".md")) this.notes.set(path, factsFromText(path, text, this.yaml));
	}

	remove(path: string): void {
		this.index.remove(path);
		this.notes.delete(path);
	}

	refresh(): Promise<void> {
		return Promise.resolve();
	}

	refreshNote(): Promise<void> {
		return Promise.resolve();
	}

	notePaths(): Iterable<string> {
		return this.notes.keys();
	}

	facts(path: string): NoteFacts | undefined {
		return this.notes.get(path);
	}

	resolveLink(linkpath: string, sourcePath: string, exists?: (path: string) => boolean): string | undefined {
		return this.index.resolve(linkpath, sourcePath, exists);
	}
}
