/**
 * Issue 11, finding 8: does the time of a `files/read` answer tell a private note from a missing one? Starts the
 * headless host's assembly on a temp vault, connects one WebSocket client, and reads each case in turn (interleaved,
 * so drift hits all alike) `--reads` times (default 3000), then prints the median and quartiles of the round trip
 * per case, in microseconds. A measurement to report, not a test: nothing here asserts a time.
 * Usage: node scripts/run-bench.mjs tests/security/existence-timing.ts [--reads N]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import WebSocket from "ws";
import { assembleHeadlessBridge } from "../../src/headless/headless-bridge";

const CASES: [string, string][] = [
	["public note", "Notes/open.md"],
	["missing note", "Notes/missing.md"],
	["note in a private folder", "Secret/diary.md"],
	["missing note in a private folder", "Secret/missing.md"],
	["note with a private tag", "Notes/tagged.md"],
	["file in a hidden folder", ".vault-config/plugins/p/data.json"],
];

async function main(): Promise<void> {
	const readsArgument = process.argv.indexOf("--reads");
	const reads = readsArgument > 0 ? Number(process.argv[readsArgument + 1]) : 3000;
	const temp = mkdtempSync(join(tmpdir(), "ccb-privacy-timing-"));
	const vaultPath = join(temp, "vault");
	const home = join(temp, "home");
	mkdirSync(home);
	for (const [path, text] of [
		["Notes/open.md", "public text\n".repeat(20)],
		["Secret/diary.md", "private text\n".repeat(20)],
		["Notes/tagged.md", `---\ntags: [private]\n---\n${"tagged text\n".repeat(18)}`],
		[".vault-config/plugins/p/data.json", '{"apiKey":"x"}\n'],
	]) {
		mkdirSync(dirname(join(vaultPath, path)), { recursive: true });
		writeFileSync(join(vaultPath, path), text);
	}
	const { bridge, dispose } = assembleHeadlessBridge({
		vaultPath,
		ideName: "privacy timing",
		homeDir: home,
		port: 0,
		privacyRules: () => ({ folders: ["Secret"], tags: ["private"] }),
		log: () => undefined,
	});
	const status = await bridge.host.start();
	const token = (JSON.parse(readFileSync(status.lockFilePath ?? "", "utf8")) as { authToken: string }).authToken;
	const ws = new WebSocket(`ws://127.0.0.1:${status.port ?? 0}`, "mcp", {
		headers: { "x-claude-code-ide-authorization": token },
	});
	await new Promise<void>((resolve, reject) => {
		ws.once("open", () => resolve());
		ws.once("error", reject);
	});
	let nextId = 1;
	const pending = new Map<number, (text: string) => void>();
	ws.on("message", (data: WebSocket.RawData) => {
		const text = Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.from(data as ArrayBuffer).toString("utf8");
		const message = JSON.parse(text) as { id?: number };
		if (message.id !== undefined) pending.get(message.id)?.(text);
	});
	const request = (method: string, params: unknown): Promise<string> => {
		const id = nextId++;
		return new Promise((resolve) => {
			pending.set(id, (text) => {
				pending.delete(id);
				resolve(text);
			});
			ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
		});
	};
	await request("initialize", {
		protocolVersion: "2025-11-25",
		capabilities: {},
		clientInfo: { name: "timing", version: "1" },
	});
	ws.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));

	const samples = new Map<string, number[]>(CASES.map(([name]) => [name, []]));
	const answers = new Map<string, string>();
	for (let round = -200; round < reads; round++) {
		for (const [name, path] of CASES) {
			const started = process.hrtime.bigint();
			const answer = await request("files/read", { path });
			const micros = Number(process.hrtime.bigint() - started) / 1000;
			if (round >= 0) samples.get(name)?.push(micros);
			answers.set(
				name,
				answer
					.replace(/"id":\d+/, "")
					.split(path)
					.join("<PATH>")
					.slice(0, 90),
			);
		}
	}
	ws.close();
	dispose();
	await bridge.host.stop();
	rmSync(temp, { recursive: true, force: true });

	process.stdout.write(
		`files/read round trips, ${reads} reads per case after 200 warm-up rounds, interleaved (µs)\n`,
	);
	for (const [name] of CASES) {
		const sorted = [...(samples.get(name) ?? [])].sort((a, b) => a - b);
		const at = (q: number): string => (sorted[Math.floor(q * (sorted.length - 1))] ?? 0).toFixed(1);
		process.stdout.write(
			`${name.padEnd(34)} median ${at(0.5).padStart(7)}  p25 ${at(0.25).padStart(7)}  p75 ${at(0.75).padStart(7)}   ${answers.get(name) ?? ""}\n`,
		);
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${String(error)}\n`);
	process.exit(1);
});
