import type { Notifier } from "../bridge/notifier";
import { clampPosition, cursorSnapshot, selectionSnapshot, textBetween, type Position, type SelectionSnapshot } from "../bridge/selection";
import type { VaultPaths } from "../bridge/vault-paths";
import type { FolderVault } from "./folder-vault";

/**
 * The headless host's stand-in for Obsidian's editor: one active note and its selection, driven by
 * stdin commands and reported through the same Notifier as the plugin.
 */
export class HeadlessEditor {
	private current: SelectionSnapshot | undefined;

	constructor(
		private readonly paths: VaultPaths,
		private readonly vault: FolderVault,
		private readonly notifier: () => Notifier,
	) {}

	get selection(): SelectionSnapshot | undefined {
		return this.current;
	}

	open(path: string): SelectionSnapshot {
		const location = this.paths.resolve(path);
		this.vault.readText(location.relative);
		this.current = cursorSnapshot(location.absolute);
		this.notifier().activeNoteChanged(this.current);
		return this.current;
	}

	/** Selects from `start` to `end` (0-based); the command is a whole gesture, so it is sent at once. */
	select(path: string, start: Position, end: Position): SelectionSnapshot {
		const location = this.paths.resolve(path);
		const text = this.vault.readText(location.relative);
		if (!this.current || this.current.filePath !== location.absolute) this.open(path);
		const [from, to] = [clampPosition(text, start), clampPosition(text, end)];
		this.current = selectionSnapshot(location.absolute, textBetween(text, from, to), from, to);
		const notifier = this.notifier();
		notifier.selectionChanged(this.current);
		notifier.flush();
		return this.current;
	}
}

/** Parses `line:character` (0-based). */
export function parsePosition(text: string | undefined): Position {
	const match = /^(\d+):(\d+)$/.exec(text ?? "");
	if (!match) throw new Error(`Expected a position as <line>:<character> (0-based), not "${text ?? ""}"`);
	return { line: Number(match[1]), character: Number(match[2]) };
}
