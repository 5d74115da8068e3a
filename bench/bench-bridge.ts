import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assembleBridge, type Bridge } from "../src/bridge/bridge-assembly";
import { VaultPaths } from "../src/bridge/vault-paths";
import { FolderVault } from "../src/headless/folder-vault";
import { HeadlessEditor } from "../src/headless/headless-editor";
import { setUpHeadlessDiagnostics } from "../src/headless/headless-diagnostics";
import { setUpHeadlessIdeTools } from "../src/headless/headless-ide-tools";
import { ToolRegistry } from "../src/protocol/tool-registry";
import { SELECTION_DEBOUNCE_MS } from "../src/server/limits";
import type { LockFileContent } from "../src/server/lock-file";

export interface BenchBridge {
	bridge: Bridge;
	vaultPath: string;
	port: number;
	token: string;
	stop: () => Promise<void>;
}

/** A fresh temp folder (real path) and its removal. */
export function makeTempDir(prefix: string): { path: string; remove: () => void } {
	const path = realpathSync(mkdtempSync(join(tmpdir(), `ccb-bench-${prefix}-`)));
	return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * The bridge as the headless host wires it (assembleBridge, FolderVault, HeadlessEditor, the IDE tools and
 * getDiagnostics), in this process, on 127.0.0.1:0 with a temp HOME. `populate` fills the vault first.
 */
export async function startBenchBridge(populate: (vaultPath: string) => void): Promise<BenchBridge> {
	const temp = makeTempDir("bridge");
	const home = join(temp.path, "home");
	const vaultPath = join(temp.path, "vault");
	mkdirSync(home);
	mkdirSync(vaultPath);
	populate(vaultPath);
	const vault = new FolderVault(new VaultPaths(vaultPath));
	const tools = new ToolRegistry();
	let editor: HeadlessEditor | undefined;
	const bridge = assembleBridge({
		vaultPath,
		ideName: "Obsidian · bench",
		homeDir: home,
		pid: process.pid,
		port: 0,
		files: vault,
		tagsOf: (relativePath) => vault.tagsOf(relativePath),
		privacyRules: () => ({ folders: [], tags: [] }),
		currentSelection: () => editor?.selection,
		debounceMs: SELECTION_DEBOUNCE_MS,
		tools,
		log: () => undefined,
	});
	editor = new HeadlessEditor(bridge.paths, vault, () => bridge.notifier);
	const ideTools = setUpHeadlessIdeTools({ tools, paths: bridge.paths, vaultName: "bench", editor, latestSelection: () => bridge.notifier.latestSelection, print: () => undefined });
	const stopDiagnostics = setUpHeadlessDiagnostics({ tools, paths: bridge.paths, isPrivate: (path) => bridge.privacy.isPrivateRelative(path), log: () => undefined });
	const status = await bridge.host.start();
	if (status.state !== "listening" || status.port === undefined || !status.lockFilePath) {
		temp.remove();
		throw new Error(`The bridge did not start: ${status.error ?? status.state}`);
	}
	const lock = JSON.parse(readFileSync(status.lockFilePath, "utf8")) as LockFileContent;
	return {
		bridge,
		vaultPath,
		port: status.port,
		token: lock.authToken,
		stop: async () => {
			bridge.notifier.dispose();
			ideTools.reviews.dispose();
			stopDiagnostics();
			await bridge.host.stop();
			temp.remove();
		},
	};
}
