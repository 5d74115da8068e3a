import { basename } from "node:path";
import { assembleBridge, type Bridge, type BridgeAssemblyOptions, type BridgePorts } from "../assembly/bridge-assembly";
import { FileSystemNoteSource } from "../vault/folder/filesystem-note-source";
import { VaultPaths } from "../vault/vault-paths";
import { SELECTION_DEBOUNCE_MS } from "../ide/ide-limits";
import { describeError } from "../shared/describe-error";
import { FolderVaultIndex } from "../vault/folder/folder-vault-index";
import { createVaultContentMethods } from "../vault-tools/resources/content-methods";
import type { HeadlessCommand } from "./command-loop";
import { diffCommand } from "./diff-commands";
import { FolderVault } from "./folder-vault";
import { HeadlessEditor } from "./headless-editor";
import { HeadlessReviewPort } from "./headless-review-port";
import { HeadlessWorkspace } from "./headless-workspace";
import { parseYaml } from "../vault/markdown/yaml-parser";
import type { JournalStore } from "../journal/journal-store";
import { activityCommands } from "./activity-commands";
import { folderUndoWrites } from "./folder-undo-writes";

export interface HeadlessBridgeOptions extends Pick<BridgeAssemblyOptions, "ideName" | "homeDir" | "port" | "privacyRules" | "log" | "trace"> {
	vaultPath: string;
	debounceMs?: number;
	/** Overrides the editor's selection as the adapter and the welcome see it (tests). */
	currentSelection?: BridgePorts["currentSelection"];
	/** Where the IDE tools' output goes: `print` shows review events, `diagnosticsLog` the note scanner's problems. Dropped when absent. */
	ideTools?: { print: (line: string) => void; diagnosticsLog: (message: string) => void };
	/** Whether vault-tool writes wait for `diff accept|reject` (read per write). Default: always. */
	reviewVaultToolWrites?: () => boolean;
	/** Where the activity journal is kept (the user's data folder); without it nothing is recorded. */
	journalStore?: JournalStore;
}

export interface HeadlessBridge {
	bridge: Bridge;
	vault: FolderVault;
	/** The vault tools' index of the folder (served as `bridge.vaultTools`). */
	vaultIndex: FolderVaultIndex;
	editor: HeadlessEditor;
	/** The stdin commands of the IDE tools (`diff …`). */
	commands: [string, HeadlessCommand][];
	/** Stops timers, pending reviews and file watching; the host itself is stopped separately. */
	dispose: () => void;
}

/** The core wired to a folder, as `npm start` runs it: the folder, the editor stand-in and the review list as ports. */
export function assembleHeadlessBridge(options: HeadlessBridgeOptions): HeadlessBridge {
	const paths = new VaultPaths(options.vaultPath);
	const vault = new FolderVault(paths);
	const print = options.ideTools?.print ?? ((): void => undefined);
	const diagnosticsLog = options.ideTools?.diagnosticsLog ?? ((): void => undefined);
	const editor = new HeadlessEditor(paths, vault, () => bridge.notifier);
	const notes = new FileSystemNoteSource({ root: paths.root, parseYaml, log: diagnosticsLog });
	const vaultIndex = new FolderVaultIndex({ root: paths.root, log: diagnosticsLog });
	const bridge = assembleBridge({
		paths,
		vaultName: basename(paths.root),
		ideName: options.ideName,
		homeDir: options.homeDir,
		pid: process.pid,
		port: options.port,
		ports: {
			files: vault,
			tagsOf: (relativePath) => vault.tagsOf(relativePath),
			currentSelection: options.currentSelection ?? (() => editor.selection),
			workspace: new HeadlessWorkspace(paths, editor),
			notes,
			reviewPort: () => new HeadlessReviewPort(print),
		},
		privacyRules: options.privacyRules,
		debounceMs: options.debounceMs ?? SELECTION_DEBOUNCE_MS,
		reviewEdits: true,
		vaultTools: {
			index: vaultIndex,
			// The same reader as `vault.tagsOf` (`noteTags`), over the text the tools would show, read once per version;
			// a path the index does not hold is read from disk.
			tagsOf: (path) => vaultIndex.privacyTags(path) ?? vault.tagsOf(path),
			// Resources (active note, vault overview; no daily note without Obsidian) and prompts from "Claude prompts/".
			content: (shared) => createVaultContentMethods({ vaultName: basename(paths.root), ...shared }),
			...(options.reviewVaultToolWrites ? { reviewWrites: options.reviewVaultToolWrites } : {}),
		},
		...(options.journalStore ? { journal: { store: options.journalStore, undo: folderUndoWrites(paths.root) } } : {}),
		log: options.log,
		trace: options.trace,
	});
	// List, watch and parse the folder now, so the CLI's first getDiagnostics calls (500 ms and 2 s timeouts) find it warm.
	const warmUp = setImmediate(() => {
		notes.warmUp();
		bridge.diagnostics.forVault().catch((error: unknown) => diagnosticsLog(`Diagnostics warm-up failed: ${describeError(error)}`));
	});
	return {
		bridge,
		vault,
		vaultIndex,
		editor,
		commands: [["diff", diffCommand(bridge.reviews)], ...(bridge.activity ? activityCommands(bridge.activity) : [])],
		dispose: () => {
			clearImmediate(warmUp);
			bridge.dispose();
			notes.dispose();
			vaultIndex.dispose();
		},
	};
}
