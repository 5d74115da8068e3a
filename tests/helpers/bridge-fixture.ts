import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BridgeHost, type BridgeHostOptions } from "../../src/ide/bridge-host";
import { SERVER_INFO } from "../../src/ide/server-info";
import type { LockFileContent } from "../../src/server/lock-file";
import { ToolRegistry } from "../../src/protocol/tool-registry";
import { makeTempDir } from "./temp-dir";

export interface BridgeFixture {
	host: BridgeHost;
	port: number;
	token: string;
	home: string;
	vault: string;
	lockFilePath: string;
	lock: LockFileContent;
	logs: string[];
	stop: () => Promise<void>;
}

/** Options for a BridgeHost under test: no tools, a fixed test name, logs dropped unless overridden. */
export function testHostOptions(
	home: string,
	vault: string,
	overrides: Partial<BridgeHostOptions> = {},
): BridgeHostOptions {
	return {
		vaultPath: vault,
		ideName: "Obsidian · test",
		homeDir: home,
		pid: process.pid,
		serverInfo: SERVER_INFO,
		tools: new ToolRegistry(),
		log: () => undefined,
		...overrides,
	};
}

/** A BridgeHost on 127.0.0.1:0 with a temp HOME and a temp vault. */
export async function startBridge(overrides: Partial<BridgeHostOptions> = {}): Promise<BridgeFixture> {
	const temp = makeTempDir("bridge");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "vault");
	mkdirSync(home);
	mkdirSync(vault);
	const logs: string[] = [];
	const host = new BridgeHost(testHostOptions(home, vault, { log: (message) => logs.push(message), ...overrides }));
	const status = await host.start();
	if (status.state !== "listening" || status.port === undefined || !status.lockFilePath) {
		temp.remove();
		throw new Error(`Bridge did not start: ${status.error ?? status.state}`);
	}
	const lock = JSON.parse(readFileSync(status.lockFilePath, "utf8")) as LockFileContent;
	return {
		host,
		port: status.port,
		token: lock.authToken,
		home,
		vault,
		lockFilePath: status.lockFilePath,
		lock,
		logs,
		stop: async () => {
			await host.stop();
			temp.remove();
		},
	};
}
