import type { InlineEditRun } from "./inline-edit-run";

/**
 * What the editor needs for inline edits, built over the running bridge (src/assembly/inline-edit-assembly.ts):
 * the privacy decision, and a text-only Claude Code session whose accepted changes go to the activity journal.
 */
export interface InlineEditService {
	/**
	 * Why Claude may not edit this note, in words (a private note, the bridge off); undefined when it may. `text` is
	 * the note as the editor holds it, so a private tag not saved yet counts too.
	 */
	refusal(path: string, text: string): string | undefined;
	/** A new inline edit: its Claude Code starts now, with no tools. */
	start(): InlineEditRun;
}
