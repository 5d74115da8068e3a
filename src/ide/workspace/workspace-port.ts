import type { Position, SelectionSnapshot } from "./selection";
import type { VaultLocation } from "../../vault/vault-paths";

export type { Position, SelectionSnapshot } from "./selection";

/** A range to select; start comes first. */
export interface TextRange {
	start: Position;
	end: Position;
}

export interface OpenEditor {
	location: VaultLocation;
	isActive: boolean;
	lineCount?: number;
}

export interface OpenNoteOptions {
	/** Select this range after opening. */
	selection?: TextRange;
	/** Open in a preview (reusable) tab rather than a new one. */
	preview: boolean;
	/** Focus the note; false opens it in the background. */
	makeFrontmost: boolean;
}

/** The editor side of the read-only IDE tools: Obsidian's workspace, or the headless host's memory of it. */
export interface WorkspacePort {
	/** Set on hosts without an editor, so results can say what was only recorded, not shown. */
	readonly headlessNote?: string;
	/** The active note's selection (an empty one at the cursor), or undefined without an active note editor. */
	currentSelection(): SelectionSnapshot | undefined;
	openNote(target: VaultLocation, options: OpenNoteOptions): Promise<void>;
	openEditors(): OpenEditor[];
	/** Whether the open note has changes not yet on disk; undefined when the note is not open. */
	isDirty(target: VaultLocation): Promise<boolean | undefined>;
	/** Writes the open note's pending changes; false when the note is not open. */
	save(target: VaultLocation): Promise<boolean>;
}
