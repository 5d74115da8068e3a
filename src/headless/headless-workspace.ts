import { readFileSync, statSync } from "node:fs";
import type { VaultLocation, VaultPaths } from "../vault/vault-paths";
import { lineCount } from "../ide/workspace/text-range";
import type { OpenEditor, OpenNoteOptions, SelectionSnapshot, WorkspacePort } from "../ide/workspace/workspace-port";
import type { HeadlessEditor } from "./headless-editor";

/**
 * The headless host has no editor window: `openFile` drives the same editor stand-in as the `open` and
 * `select` commands (so it sends selection_changed like Obsidian would), and notes opened in the
 * background are remembered. Notes are plain files on disk, so nothing is ever unsaved.
 */
export class HeadlessWorkspace implements WorkspacePort {
	readonly headlessNote = "headless host: no editor window; the note is recorded as open, with its selection";
	private readonly background = new Map<string, VaultLocation>();

	constructor(
		private readonly paths: VaultPaths,
		private readonly editor: HeadlessEditor,
	) {}

	currentSelection(): SelectionSnapshot | undefined {
		return this.editor.selection;
	}

	openNote(target: VaultLocation, options: OpenNoteOptions): Promise<void> {
		if (!isFile(target)) return Promise.reject(new Error(`Note not found in the vault: ${target.relative}`));
		if (!options.makeFrontmost && this.editor.selection !== undefined) {
			this.background.set(target.relative, target);
			return Promise.resolve();
		}
		this.background.delete(target.relative);
		if (options.selection) this.editor.select(target.absolute, options.selection.start, options.selection.end);
		else this.editor.open(target.absolute);
		return Promise.resolve();
	}

	openEditors(): OpenEditor[] {
		const active = this.activeLocation();
		const editors: OpenEditor[] = active
			? [{ location: active, isActive: true, lineCount: countLines(active) }]
			: [];
		for (const location of this.background.values()) {
			if (location.relative !== active?.relative)
				editors.push({ location, isActive: false, lineCount: countLines(location) });
		}
		return editors;
	}

	isDirty(target: VaultLocation): Promise<boolean | undefined> {
		return Promise.resolve(this.isOpen(target) ? false : undefined);
	}

	save(target: VaultLocation): Promise<boolean> {
		return Promise.resolve(this.isOpen(target));
	}

	private isOpen(target: VaultLocation): boolean {
		return this.activeLocation()?.relative === target.relative || this.background.has(target.relative);
	}

	private activeLocation(): VaultLocation | undefined {
		const filePath = this.editor.selection?.filePath;
		if (filePath === undefined) return undefined;
		try {
			return this.paths.resolve(filePath);
		} catch {
			return undefined;
		}
	}
}

function countLines(location: VaultLocation): number | undefined {
	try {
		return lineCount(readFileSync(location.absolute, "utf8"));
	} catch {
		return undefined;
	}
}

function isFile(location: VaultLocation): boolean {
	try {
		return statSync(location.absolute).isFile();
	} catch {
		return false;
	}
}
