import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { App as RealApp } from "obsidian";
import { App } from "../__mocks__/obsidian";
import type { BridgeStatus } from "../../src/ide/bridge-host";
import { selectionSnapshot, type SelectionSnapshot } from "../../src/ide/workspace/selection";
import { BridgeComponent } from "../../src/obsidian/bridge/bridge-component";
import { DEFAULT_SETTINGS } from "../../src/settings";
import { connectOrThrow, type JsonRpcAnswer, type TestClient } from "../helpers/test-client";
import { makeTempDir } from "../helpers/temp-dir";
import { pollUntil } from "../helpers/wait-until";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/**
 * Issue 11, finding 1, in Obsidian: the plugin's own wiring (BridgeComponent, ObsidianWorkspace, ObsidianVaultFiles)
 * with the editor's selection inside a private note and in the config folder. An attacker holding the token calls
 * openFile on the private note (with a `startText` oracle, and by another spelling), then the selection tools:
 * nothing of the note may come back, and every answer about it must be the answer for a missing note.
 */

const FILES: [string, string][] = [
	["Secret/diary.md", "OBSIDIAN-DIARY-SECRET\nsecond line\n"],
	["Notes/open.md", "public\n"],
];
const SECRET = "OBSIDIAN-DIARY-SECRET";

describe("a private note open and selected in Obsidian stays invisible", () => {
	const temp = makeTempDir("obsidian-private-note");
	const vaultPath = join(temp.path, "vault");
	const home = join(temp.path, "home");
	let selection: SelectionSnapshot | undefined;
	let component: BridgeComponent;
	let client: TestClient;

	beforeAll(async () => {
		mkdirSync(home);
		const app = new App(vaultPath, "vault");
		for (const [path, text] of FILES) {
			mkdirSync(dirname(join(vaultPath, path)), { recursive: true });
			writeFileSync(join(vaultPath, path), text);
			app.vault.contents.set(path, text);
		}
		selection = selectionSnapshot(
			join(vaultPath, "Secret", "diary.md"),
			SECRET,
			{ line: 0, character: 0 },
			{ line: 0, character: SECRET.length },
		);
		const statuses: BridgeStatus[] = [];
		component = new BridgeComponent({
			app: app as unknown as RealApp,
			vaultPath,
			settings: { ...DEFAULT_SETTINGS, privateFolders: ["Secret"], privateTags: [] },
			homeDir: home,
			currentSelection: () => selection,
			onStatusChange: (status) => statuses.push(status),
		});
		component.load();
		const listening = await pollUntil(
			() => statuses.find((status) => status.state === "listening"),
			"the bridge to listen",
		);
		const lock = JSON.parse(readFileSync(listening.lockFilePath ?? "", "utf8")) as { authToken: string };
		client = await connectOrThrow(listening.port ?? 0, { token: lock.authToken });
		await client.initialize();
	}, FIXTURE_TIMEOUT_MS);

	afterAll(async () => {
		await client?.close();
		component?.unload();
		await component?.stopped;
		temp.remove();
	});

	const tool = (name: string, args: Record<string, unknown> = {}): Promise<JsonRpcAnswer> =>
		client.request("tools/call", { name, arguments: args });
	/** The answer with the asked path (absolute or relative, and its vault-relative form) replaced by a placeholder. */
	const masked = (answer: JsonRpcAnswer, asked: string): string => {
		const relative = asked.startsWith(vaultPath) ? asked.slice(vaultPath.length + 1) : asked;
		return JSON.stringify({ result: answer.result, error: answer.error })
			.split(join(vaultPath, relative))
			.join("<PATH>")
			.split(relative)
			.join("<PATH>");
	};

	it("openFile answers as for a missing note, by any spelling, and its startText is no oracle", async () => {
		for (const spelling of ["Secret/diary.md", "SECRET/diary.md", join(vaultPath, "Secret", "diary.md")]) {
			for (const args of [
				{ makeFrontmost: false, startText: SECRET },
				{ makeFrontmost: false, startText: "not in the note" },
				{ startLine: 1, endLine: 2 },
			]) {
				const answer = await tool("openFile", { filePath: spelling, ...args });
				const control = await tool("openFile", { filePath: "Notes/missing.md", ...args });
				expect(masked(answer, spelling)).toBe(masked(control, "Notes/missing.md"));
			}
		}
	});

	it("the selection tools and workspace/selection return nothing of it, and getOpenEditors does not list it", async () => {
		const answers = [
			await tool("getCurrentSelection"),
			await tool("getLatestSelection"),
			await tool("getOpenEditors"),
			await client.request("workspace/selection", {}),
		];
		for (const answer of answers) expect(JSON.stringify(answer)).not.toMatch(/OBSIDIAN-DIARY-SECRET|diary/);
		// The same calls do answer for a public note: the silence above is the privacy rule, not a broken channel.
		selection = selectionSnapshot(
			join(vaultPath, "Notes", "open.md"),
			"public",
			{ line: 0, character: 0 },
			{ line: 0, character: 6 },
		);
		expect(JSON.stringify(await client.request("workspace/selection", {}))).toContain("public");
	});
});
