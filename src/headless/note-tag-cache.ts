import { readFileSync, statSync } from "node:fs";
import { noteTags } from "../vault/markdown/note-tags";

/** Past this many notes the cache starts over rather than grow without bound. */
const MAX_CACHED_NOTES = 100_000;

interface CachedTags {
	size: number;
	mtimeMs: number;
	ctimeMs: number;
	tags: string[];
}

/**
 * The tags of notes on disk by absolute path, read again only when a note's size, mtime or ctime changed (ctime
 * also moves when a tool restores an old mtime). A note that cannot be read has no tags.
 */
export class NoteTagCache {
	private readonly entries = new Map<string, CachedTags>();

	of(absolutePath: string): string[] {
		let stats;
		try {
			stats = statSync(absolutePath);
		} catch {
			this.entries.delete(absolutePath);
			return [];
		}
		const cached = this.entries.get(absolutePath);
		if (cached && cached.size === stats.size && cached.mtimeMs === stats.mtimeMs && cached.ctimeMs === stats.ctimeMs) return cached.tags;
		let text: string;
		try {
			text = readFileSync(absolutePath, "utf8");
		} catch {
			this.entries.delete(absolutePath);
			return [];
		}
		const tags = noteTags(text);
		if (this.entries.size >= MAX_CACHED_NOTES) this.entries.clear();
		this.entries.set(absolutePath, { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, tags });
		return tags;
	}
}
