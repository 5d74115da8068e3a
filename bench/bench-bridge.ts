import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Bridge } from "../src/assembly/bridge-assembly";
import type { HeadlessEditor } from "../src/headless/headless-editor";
import { assembleHeadlessBridge } from "../src/headless/headless-bridge";
import type { LockFileContent } from "../src/server/lock-file";
import { makeTempDir } from "../tests/helpers/temp-dir";

export interface BenchBridge {
	bridge: Bridge;
	/** The headless host's editor stand-in (what its `select` command drives). */
	editor: HeadlessEditor;
	vaultPath: string;
	port: number;
	token: string;
	stop: () => Promise<void>;
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
	const headless = assembleHeadlessBridge({
		vaultPath,
		ideName: "Obsidian · bench",
		homeDir: home,
		port: 0,
		privacyRules: () => ({ folders: [], tags: [] }),
		log: () => undefined,
		ideTools: { print: () => undefined, diagnosticsLog: () => undefined },
	});
	const { bridge } = headless;
	const status = await bridge.host.start();
	if (status.state !== "listening" || status.port === undefined || !status.lockFilePath) {
		temp.remove();
		throw new Error(`The bridge did not start: ${status.error ?? status.state}`);
	}
	const lock = JSON.parse(readFileSync(status.lockFilePath, "utf8")) as LockFileContent;
	return {
		bridge,
		editor: headless.editor,
		vaultPath,
		port: status.port,
		token: lock.authToken,
		stop: async () => {
			headless.dispose();
			await bridge.host.stop();
			temp.remove();
		},
	};
}
