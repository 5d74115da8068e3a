import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PrivacyRules } from "../../src/vault/privacy/privacy";
import type { JournalStore } from "../../src/journal/journal-store";
import type { Bridge, BridgePorts } from "../../src/assembly/bridge-assembly";
import type { FolderVault } from "../../src/vault/folder/folder-vault";
import { assembleHeadlessBridge } from "../../src/headless/headless-bridge";
import type { HeadlessEditor } from "../../src/headless/headless-editor";
import type { LockFileContent } from "../../src/server/lock-file";
import { connectOrThrow, type TestClient } from "./test-client";
import { makeTempDir } from "./temp-dir";
import type { JournalSeal } from "../../src/journal/journal-seal";
import { testSeal } from "../journal/test-seal";

export interface AssembledBridge {
	bridge: Bridge;
	editor: HeadlessEditor;
	vault: FolderVault;
	/** The vault folder (real path). */
	vaultPath: string;
	home: string;
	/** The temp folder holding home and vault; free for other fixtures (e.g. files outside the vault). */
	tempPath: string;
	port: number;
	token: string;
	lockFilePath: string;
	privacy: PrivacyRules;
	logs: string[];
	/** What the headless host would print (review events). */
	printed: string[];
	/** Runs a headless stdin command of the IDE tools (`diff list`, `diff reject …`) and returns its output. */
	command: (line: string) => Promise<string>;
	/** A client that sent initialize and notifications/initialized (and ide_connected with `pid`, if given). */
	client: (options?: { pid?: number }) => Promise<TestClient>;
	stop: () => Promise<void>;
}

export interface AssembledBridgeOptions {
	/** Called with the vault folder before the bridge starts, to create files. */
	populate?: (vaultPath: string) => void;
	privacy?: Partial<PrivacyRules>;
	debounceMs?: number;
	/** Overrides the editor's selection as the adapter and the welcome see it. */
	currentSelection?: BridgePorts["currentSelection"];
	/** Where the activity journal is kept; without it nothing is recorded. */
	journalStore?: JournalStore;
	/** This device's seal for the journal (default with a store: a key of its own, so its records are this device's). */
	journalSeal?: JournalSeal;
	/** Whether vault-tool writes wait for `diff accept|reject` (default: always). */
	reviewVaultToolWrites?: () => boolean;
}

/**
 * The headless host's assembly (`assembleHeadlessBridge`: FolderVault, HeadlessEditor, every IDE tool), on
 * 127.0.0.1:0 with a temp HOME and a temp vault; the token is read back from the lock file.
 */
export async function startAssembledBridge(options: AssembledBridgeOptions = {}): Promise<AssembledBridge> {
	const temp = makeTempDir("assembled");
	const home = join(temp.path, "home");
	const vaultPath = join(temp.path, "vault");
	mkdirSync(home);
	mkdirSync(vaultPath);
	options.populate?.(vaultPath);
	const privacy: PrivacyRules = { folders: options.privacy?.folders ?? [], tags: options.privacy?.tags ?? [] };
	const logs: string[] = [];
	const printed: string[] = [];
	const { bridge, vault, editor, commands, dispose } = assembleHeadlessBridge({
		vaultPath,
		ideName: "Obsidian · assembled test",
		homeDir: home,
		port: 0,
		privacyRules: () => privacy,
		currentSelection: options.currentSelection,
		debounceMs: options.debounceMs ?? 100,
		log: (message) => logs.push(message),
		ideTools: { print: (line) => printed.push(line), diagnosticsLog: (message) => logs.push(message) },
		...(options.journalStore
			? { journalStore: options.journalStore, journalSeal: options.journalSeal ?? testSeal() }
			: {}),
		...(options.reviewVaultToolWrites ? { reviewVaultToolWrites: options.reviewVaultToolWrites } : {}),
	});
	const status = await bridge.host.start();
	if (status.state !== "listening" || status.port === undefined || !status.lockFilePath) {
		temp.remove();
		throw new Error(`Bridge did not start: ${status.error ?? status.state}`);
	}
	const lock = JSON.parse(readFileSync(status.lockFilePath, "utf8")) as LockFileContent;
	const port = status.port;
	const clients: TestClient[] = [];
	const fixture: AssembledBridge = {
		bridge,
		editor,
		vault,
		vaultPath,
		home,
		tempPath: temp.path,
		port,
		token: lock.authToken,
		lockFilePath: status.lockFilePath,
		privacy,
		logs,
		printed,
		command: async (line) => {
			const [name = "", ...args] = line.split(" ").filter((word) => word !== "");
			const found = commands.find(([commandName]) => commandName === name);
			if (!found) throw new Error(`No headless command "${name}"`);
			return String(await found[1].run(args));
		},
		client: async ({ pid } = {}) => {
			const client = await connectOrThrow(port, { token: fixture.token });
			clients.push(client);
			await client.initialize();
			if (pid !== undefined) client.notify("ide_connected", { pid });
			return client;
		},
		stop: async () => {
			dispose();
			await Promise.all(clients.map((client) => client.close()));
			await bridge.host.stop();
			temp.remove();
		},
	};
	return fixture;
}
