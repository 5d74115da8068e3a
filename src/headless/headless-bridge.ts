import { basename } from "node:path";
import { assembleBridge, type Bridge, type BridgeAssemblyOptions } from "../bridge/bridge-assembly";
import { VaultPaths } from "../bridge/vault-paths";
import { ToolRegistry } from "../protocol/tool-registry";
import { SELECTION_DEBOUNCE_MS } from "../server/limits";
import type { HeadlessCommand } from "./command-loop";
import { FolderVault } from "./folder-vault";
import { setUpHeadlessDiagnostics } from "./headless-diagnostics";
import { HeadlessEditor } from "./headless-editor";
import { setUpHeadlessIdeTools } from "./headless-ide-tools";

export interface HeadlessBridgeOptions
	extends Pick<BridgeAssemblyOptions, "vaultPath" | "ideName" | "homeDir" | "port" | "privacyRules" | "log" | "trace"> {
	debounceMs?: number;
	/** Overrides the editor's selection as the adapter and the welcome see it (tests). */
	currentSelection?: BridgeAssemblyOptions["currentSelection"];
	/** Register the IDE tools and getDiagnostics; `print` shows review events. Off: no tools are listed. */
	ideTools: false | { print: (line: string) => void; diagnosticsLog: (message: string) => void };
}

export interface HeadlessBridge {
	bridge: Bridge;
	vault: FolderVault;
	editor: HeadlessEditor;
	/** The stdin commands of the IDE tools (`diff …`). */
	commands: [string, HeadlessCommand][];
	/** Stops timers, pending reviews and file watching; the host itself is stopped separately. */
	dispose: () => void;
}

/** The core wired to a folder, as `npm start` runs it: FolderVault, the editor stand-in, and the headless tools. */
export function assembleHeadlessBridge(options: HeadlessBridgeOptions): HeadlessBridge {
	const vault = new FolderVault(new VaultPaths(options.vaultPath));
	const tools = new ToolRegistry();
	let editor: HeadlessEditor | undefined;
	const bridge = assembleBridge({
		vaultPath: options.vaultPath,
		ideName: options.ideName,
		homeDir: options.homeDir,
		pid: process.pid,
		port: options.port,
		files: vault,
		tagsOf: (relativePath) => vault.tagsOf(relativePath),
		privacyRules: options.privacyRules,
		currentSelection: options.currentSelection ?? (() => editor?.selection),
		debounceMs: options.debounceMs ?? SELECTION_DEBOUNCE_MS,
		tools,
		log: options.log,
		trace: options.trace,
	});
	editor = new HeadlessEditor(bridge.paths, vault, () => bridge.notifier);
	const cleanups: (() => void)[] = [() => bridge.notifier.dispose()];
	const commands: [string, HeadlessCommand][] = [];
	if (options.ideTools) {
		const ideTools = setUpHeadlessIdeTools({
			tools,
			paths: bridge.paths,
			vaultName: basename(options.vaultPath),
			editor,
			latestSelection: () => bridge.notifier.latestSelection,
			print: options.ideTools.print,
		});
		commands.push(...ideTools.commands);
		cleanups.push(() => ideTools.reviews.dispose());
		cleanups.push(
			setUpHeadlessDiagnostics({
				tools,
				paths: bridge.paths,
				isPrivate: (relativePath) => bridge.privacy.isPrivateRelative(relativePath),
				log: options.ideTools.diagnosticsLog,
			}),
		);
	}
	return { bridge, vault, editor, commands, dispose: () => cleanups.forEach((cleanup) => cleanup()) };
}
