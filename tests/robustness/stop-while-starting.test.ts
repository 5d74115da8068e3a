import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { createConnection } from "node:net";
import { join } from "node:path";
import { BridgeHost } from "../../src/ide/bridge-host";
import { McpHttpServer } from "../../src/server/http/mcp-http-server";
import { testHostOptions } from "../helpers/bridge-fixture";
import { makeTempDir } from "../helpers/temp-dir";

/**
 * Obsidian unloads a plugin whenever the user disables it, possibly while its server is still starting (the
 * layout-ready start is not awaited). A stop during a start must leave nothing behind: no port, no lock file.
 */
const temp = makeTempDir("stop-while-starting");
afterAll(() => temp.remove());

/** Whether something accepts connections on this loopback port. */
function accepts(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = createConnection({ host: "127.0.0.1", port });
		socket.once("connect", () => {
			socket.destroy();
			resolve(true);
		});
		socket.once("error", () => resolve(false));
	});
}

describe("a stop while the server is still starting", () => {
	it("BridgeHost: the start completes into a stop, leaving no port open and no lock file", async () => {
		const home = join(temp.path, "home");
		const vault = join(temp.path, "vault");
		mkdirSync(vault, { recursive: true });
		const ports: number[] = [];
		const host = new BridgeHost(
			testHostOptions(home, vault, {
				onStatusChange: (status) => status.port !== undefined && ports.push(status.port),
			}),
		);
		const started = host.start();
		await host.stop();
		await started;
		expect(host.status().state).toBe("stopped");
		const lockFolder = join(home, ".claude", "ide");
		expect(existsSync(lockFolder) ? readdirSync(lockFolder).filter((name) => name.endsWith(".lock")) : []).toEqual(
			[],
		);
		for (const port of ports) expect(await accepts(port)).toBe(false);
	});

	it("McpHttpServer: the port a start was opening is closed by the stop", async () => {
		const ports: number[] = [];
		const server = new McpHttpServer({
			port: 0,
			token: () => "t".repeat(64),
			handle: () => Promise.resolve(undefined),
			protocolVersions: ["2025-06-18"],
			onStatusChange: (status) => status.state === "listening" && ports.push(status.port),
		});
		const started = server.start();
		await server.stop();
		await started;
		expect(server.status().state).not.toBe("listening");
		for (const port of ports) expect(await accepts(port)).toBe(false);
	});
});
