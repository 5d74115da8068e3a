import { normalizePath, type App } from "obsidian";
import type { TranscriptEntry } from "../../agent/transcript/panel-transcript";
import { transcriptAsMarkdown } from "../../agent/transcript/transcript-export";

/** Characters a note name cannot hold on some system, or that links treat specially. */
const UNSAFE_NAME = /[\\/:*?"<>|#^[\]]/g;

/**
 * Writes a session as a new Markdown note in `folder` (created when missing), named after its time and first
 * line; returns the note's path.
 */
export async function exportSession(
	app: App,
	folder: string,
	entries: readonly TranscriptEntry[],
	meta: { sessionId?: string; title: string },
	now = new Date(),
): Promise<string> {
	const target = normalizePath(folder.trim() || "Claude sessions");
	const stamp = now.toISOString().slice(0, 16).replace("T", " ").replace(":", "-");
	const title = meta.title.replace(UNSAFE_NAME, " ").replace(/\s+/g, " ").trim().slice(0, 60) || "Session";
	let path = normalizePath(`${target}/Claude ${stamp} ${title}.md`);
	for (let copy = 2; app.vault.getAbstractFileByPath(path); copy++)
		path = normalizePath(`${target}/Claude ${stamp} ${title} ${copy}.md`);
	if (!app.vault.getAbstractFileByPath(target)) await app.vault.createFolder(target);
	await app.vault.create(path, transcriptAsMarkdown(entries, { ...meta, exportedAt: now }));
	return path;
}
