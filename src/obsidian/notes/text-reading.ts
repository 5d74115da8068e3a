import type { CachedMetadata } from "obsidian";
import { checkFrontmatter } from "../../vault/markdown/frontmatter-check";
import { noteHead } from "../../vault/markdown/line-scan";
import type { FrontmatterProblem } from "../../vault/markdown/note-model";
import { noteTags } from "../../vault/markdown/note-tags";
import { splitLines } from "../../shared/text-lines";
import type { YamlCodec } from "../../shared/yaml-codec";
import { frontmatterDetail, type FrontmatterDetail } from "./cache-facts";

const NO_TAGS: readonly string[] = Object.freeze([]);

/**
 * What the note store read from the text of the version a cache entry was made from (`IndexedReading`), as one
 * object a note: the store keeps one for every note, and a restart reads every note's at once (closures and
 * accessors made per note were several kept objects each, 100k notes' worth for the collector to copy and mark).
 * The text is read once (`read`: when first asked, or in the store's slices) and not kept after; the frontmatter's
 * detail is made from its lines (`head`) when first asked.
 */
export class TextReading {
	private readTags: readonly string[] = NO_TAGS;
	private readProblem: FrontmatterProblem | null = null;
	private madeDetail: FrontmatterDetail | undefined;

	constructor(
		readonly cache: CachedMetadata,
		/** The text's frontmatter lines (undefined without frontmatter), until the detail is made from them. */
		private head: string | undefined,
		/** The text, until it is read. */
		private source: string | undefined,
		private readonly yaml: YamlCodec,
	) {}

	/** The tags privacy reads (`noteTags`). */
	get tags(): readonly string[] {
		this.read();
		return this.readTags;
	}

	/** The text-based frontmatter check; null when valid or absent. */
	get problem(): FrontmatterProblem | null {
		this.read();
		return this.readProblem;
	}

	detail(): FrontmatterDetail | undefined {
		if (this.head !== undefined) {
			this.madeDetail = frontmatterDetail(this.head, this.cache, this.yaml);
			this.head = undefined;
		}
		return this.madeDetail;
	}

	/** Reads the text (its tags, its frontmatter's problem) unless done already. */
	read(): void {
		const source = this.source;
		if (source === undefined) return;
		this.readTags = noteTags(source, this.yaml);
		// `noteHead`'s lines give `checkFrontmatter` the same answer as every line, where only `\n` ends a line.
		this.readProblem =
			checkFrontmatter(source.includes("\r") ? splitLines(source) : noteHead(source).lines, this.yaml.parse) ??
			null;
		this.source = undefined;
	}
}
