import { basename } from "node:path";
import { assembleBridge, type Bridge, type BridgeAssemblyOptions, type BridgePorts } from "../assembly/bridge-assembly";
import { VaultPaths } from "../vault/vault-paths";
import { SELECTION_DEBOUNCE_MS } from "../ide/ide-limits";
import { describeError } from "../shared/describe-error";
import { FolderVault } from "../vault/folder/folder-vault";
import { createVaultContentMethods } from "../vault-tools/resources/content-methods";
import type { HeadlessCommand } from "./command-loop";
import { diffCommand } from "./diff-commands";
import { HeadlessEditor } from "./headless-editor";
import { HeadlessReviewPort } from "./headless-review-port";
import { HeadlessWorkspace } from "./headless-workspace";
import type { JournalStore } from "../journal/journal-store";
import type { JournalSeal } from "../journal/journal-seal";
import { activityCommands } from "./activity-commands";
import { folderUndoWrites } from "./folder-undo-writes";
import { libraryYamlCodec } from "../vault/folder/yaml-library-codec";

export interface HeadlessBridgeOptions extends Pick<
	BridgeAssemblyOptions,
	"ideName" | "homeDir" | "port" | "privacyRules" | "log" | "trace"
> {
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
	/** This device's seal for the journal's records (`deviceJournalSeal`): without it, nothing can be undone. */
	journalSeal?: JournalSeal;
}

export interface HeadlessBridge {
	bridge: Bridge;
	/** The folder, once: its files (IDE), notes (diagnostics), index (vault tools) and tags (privacy) share one store. */
	vault: FolderVault;
	editor: HeadlessEditor;
	/** The stdin commands of the IDE tools (`diff …`). */
	commands: [string, HeadlessCommand][];
	/** Stops timers, pending reviews and file watching; the host itself is stopped separately. */
	dispose: () => void;
}

/** The core wired to a folder, as `npm start` runs it: the folder, the editor stand-in and the review list as ports. */
export function assembleHeadlessBridge(options: HeadlessBridgeOptions): HeadlessBridge {
	const paths = new VaultPaths(options.vaultPath);
	const print = options.ideTools?.print ?? ((): void => undefined);
	const diagnosticsLog = options.ideTools?.diagnosticsLog ?? ((): void => undefined);
	const vault = new FolderVault({ root: paths.root, log: diagnosticsLog, yaml: libraryYamlCodec });
	const editor = new HeadlessEditor(paths, vault.files, () => bridge.notifier);
	const notes = vault.notes;
	const vaultIndex = vault.index;
	const bridge = assembleBridge({
		paths,
		vaultName: basename(paths.root),
		ideName: options.ideName,
		homeDir: options.homeDir,
		pid: process.pid,
		port: options.port,
		ports: {
			files: vault.files,
			// Checked with one stat per question, as the IDE channel always did; the vault tools below rely on the watcher.
			tagsOf: (relativePath) => vault.tagsOf(relativePath, { fresh: true }),
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
			yaml: libraryYamlCodec,
			// The folder adapter's one tag reader (`noteTags`), kept per note version; a path it does not list is read from disk.
			tagsOf: (relativePath) => vault.tagsOf(relativePath),
			// Resources (active note, vault overview; no daily note without Obsidian) and prompts from "Claude prompts/".
			content: (shared) => createVaultContentMethods({ vaultName: basename(paths.root), ...shared }),
			...(options.reviewVaultToolWrites ? { reviewWrites: options.reviewVaultToolWrites } : {}),
		},
		...(options.journalStore
			? {
					journal: {
						store: options.journalStore,
						...(options.journalSeal ? { seal: options.journalSeal } : {}),
						yaml: libraryYamlCodec,
						undo: folderUndoWrites(paths.root),
					},
				}
			: {}),
		log: options.log,
		trace: options.trace,
	});
	// List, watch and parse the folder now, so the CLI's first getDiagnostics calls (500 ms and 2 s timeouts) find it warm.
	const warmUp = setImmediate(() => {
		notes.warmUp();
		bridge.diagnostics
			.forVault()
			.catch((error: unknown) => diagnosticsLog(`Diagnostics warm-up failed: ${describeError(error)}`));
	});
	return {
		bridge,
		vault,
		editor,
		commands: [
			["diff", diffCommand(bridge.reviews)],
			...(bridge.activity ? activityCommands(bridge.activity) : []),
		],
		dispose: () => {
			clearImmediate(warmUp);
			bridge.dispose();
			vault.dispose();
		},
	};
}
