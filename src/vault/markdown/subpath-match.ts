import type { BlockIdFact, HeadingFact } from "./note-model";

/**
 * How a heading is compared with the heading part of a link. Obsidian matches headings case-insensitively and
 * treats the characters it cannot keep in a link (`# | ^ : [ ] \` and `%%`) as spaces when it writes links to
 * headings, so both sides are normalised the same way: those characters become spaces, runs of white space
 * collapse to one, and the ends are trimmed.
 */
export function headingKey(text: string): string {
	return text
		.replace(/%%|[#|^:[\]\\]/g, " ")
		.replace(/\s+/g, " ")
		.trim()
		.toLowerCase();
}

/**
 * Whether `subpath` (after the first `#`, e.g. `Part` or `Part#Detail`) names headings of the note. For a nested
 * path each part must match a heading that comes after the previous part's heading, as Obsidian requires.
 */
export function hasHeadingPath(headings: readonly Pick<HeadingFact, "text">[], subpath: string): boolean {
	const parts = subpath
		.split("#")
		.map(headingKey)
		.filter((part) => part !== "");
	if (parts.length === 0) return true;
	let from = 0;
	for (const part of parts) {
		const index = headings.findIndex((heading, position) => position >= from && headingKey(heading.text) === part);
		if (index < 0) return false;
		from = index + 1;
	}
	return true;
}

/** Block ids are compared case-insensitively, as Obsidian does. */
export function blockKey(id: string): string {
	return id.toLowerCase();
}

export function hasBlockId(blockIds: readonly Pick<BlockIdFact, "id">[], id: string): boolean {
	const wanted = blockKey(id);
	return blockIds.some((block) => blockKey(block.id) === wanted);
}
