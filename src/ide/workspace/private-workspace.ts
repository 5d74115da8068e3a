import { RefusedPathError } from "../../vault/notes/vault-files";
import type { VaultPrivacy } from "../../vault/privacy/vault-privacy";
import type { VaultLocation } from "../../vault/vault-paths";
import type { SelectionSnapshot } from "./selection";
import type { OpenEditor, OpenNoteOptions, WorkspacePort } from "./workspace-port";

/** Private notes are not open, not dirty, cannot be saved or opened, and have no selection. */
export class PrivateWorkspace implements WorkspacePort {
	readonly headlessNote: string | undefined;

	constructor(
		private readonly port: WorkspacePort,
		private readonly privacy: VaultPrivacy,
		readonly currentSelection: () => SelectionSnapshot | undefined,
	) {
		this.headlessNote = port.headlessNote;
	}

	openNote(target: VaultLocation, options: OpenNoteOptions): Promise<void> {
		if (this.privacy.hides(target)) return Promise.reject(new RefusedPathError(`Not found: ${target.relative}`));
		return this.port.openNote(target, options);
	}

	openEditors(): OpenEditor[] {
		return this.port.openEditors().filter((editor) => !this.privacy.hides(editor.location));
	}

	isDirty(target: VaultLocation): Promise<boolean | undefined> {
		return this.privacy.hides(target) ? Promise.resolve(undefined) : this.port.isDirty(target);
	}

	save(target: VaultLocation): Promise<boolean> {
		return this.privacy.hides(target) ? Promise.resolve(false) : this.port.save(target);
	}
}

/** The editor side of the IDE's workspace tools through the vault's privacy boundary. */
export function privateWorkspace(port: WorkspacePort, privacy: VaultPrivacy): WorkspacePort {
	return new PrivateWorkspace(
		port,
		privacy,
		privacy.selection(() => port.currentSelection()),
	);
}
