/**
 * Times `resources/list` over a 10k-note vault while a private-tag rule is set, against the headless host: privacy
 * asks `FolderVault.tagsOf` for every note of a listing (issue 11 finding 4; the tags are kept per note version,
 * checked with one stat). Prints the first listing (cold) and the median of 7 more (warm); `NO_TAGS=1` runs it without
 * the rule, the floor. Usage: node scripts/run-bench.mjs tests/security/tag-listing-speed.ts
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { assembleHeadlessBridge } from "../../src/headless/headless-bridge";
import { rawDataToText } from "../../src/server/connection-manager";

const COUNT = 10_000;
const prose = "Lorem ipsum dolor sit amet, with a #topic tag and `code #not` spans. ".repeat(45);

async function main(): Promise<void> {
	const temp = mkdtempSync(join(tmpdir(), "ccb-taglist-"));
	const vault = join(temp, "vault");
	const home = join(temp, "home");
	mkdirSync(home);
	for (let folder = 0; folder < COUNT / 100; folder++) mkdirSync(join(vault, `Area ${folder}`), { recursive: true });
	for (let i = 0; i < COUNT; i++)
		writeFileSync(
			join(vault, `Area ${Math.floor(i / 100)}/Note ${i}.md`),
			`---\ntitle: Note ${i}\ntags: [bench${i % 97 === 0 ? ", private" : ""}]\n---\n# Note ${i}\n\n${prose}\n`,
		);
	const { bridge, dispose } = assembleHeadlessBridge({
		vaultPath: vault,
		ideName: "bench",
		homeDir: home,
		port: 0,
		privacyRules: () => ({ folders: [], tags: process.env.NO_TAGS ? [] : ["private"] }),
		debounceMs: 50,
		log: () => undefined,
	});
	const status = await bridge.host.start();
	const token = (JSON.parse(readFileSync(status.lockFilePath ?? "", "utf8")) as { authToken: string }).authToken;
	const ws = new WebSocket(`ws://127.0.0.1:${status.port}`, "mcp", {
		headers: { "x-claude-code-ide-authorization": token },
	});
	await new Promise((resolve, reject) => {
		ws.once("open", resolve);
		ws.once("error", reject);
	});
	let id = 0;
	const pending = new Map<number, (value: unknown) => void>();
	ws.on("message", (data) => {
		const message = JSON.parse(rawDataToText(data)) as { id?: number; result?: unknown; error?: unknown };
		if (message.id !== undefined) pending.get(message.id)?.(message.result ?? message.error);
	});
	const request = (method: string, params: unknown): Promise<unknown> =>
		new Promise((resolve) => {
			const n = ++id;
			pending.set(n, resolve);
			ws.send(JSON.stringify({ jsonrpc: "2.0", id: n, method, params }));
		});
	await request("initialize", {
		protocolVersion: "2025-11-25",
		capabilities: {},
		clientInfo: { name: "bench", version: "0" },
	});
	ws.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
	const listAll = async (): Promise<{ ms: number; count: number }> => {
		const started = process.hrtime.bigint();
		let cursor: string | undefined;
		let count = 0;
		do {
			const result = (await request("resources/list", cursor === undefined ? {} : { cursor })) as {
				resources: unknown[];
				nextCursor?: string;
			};
			count += result.resources.length;
			cursor = result.nextCursor;
		} while (cursor !== undefined);
		return { ms: Number(process.hrtime.bigint() - started) / 1e6, count };
	};
	const first = await listAll();
	const warm: number[] = [];
	for (let run = 0; run < 7; run++) warm.push((await listAll()).ms);
	warm.sort((a, b) => a - b);
	process.stdout.write(
		`${JSON.stringify({ notes: COUNT, listed: first.count, firstMs: Math.round(first.ms), warmMedianMs: Math.round(warm[3] ?? 0), warmMinMs: Math.round(warm[0] ?? 0), warmMaxMs: Math.round(warm[6] ?? 0) })}\n`,
	);
	ws.close();
	dispose();
	await bridge.host.stop();
	rmSync(temp, { recursive: true, force: true });
}
void main();
