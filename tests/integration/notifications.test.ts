import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { selectionSnapshot } from "../../src/bridge/selection";
import { CLIENT_WELCOME_DELAY_MS, QUEUED_MENTION_SPACING_MS } from "../../src/server/limits";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import { connectOrThrow, type TestClient } from "../helpers/test-client";

const DEBOUNCE = 100;
const NOTE = "Notes/alpha.md";
const NOTE_TEXT = "first line\nsecond line\nthird line\n";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Method and params of every notification, without the bridge's own tools/list_changed. */
const received = (client: TestClient) => client.notifications.filter((n) => n.method !== "notifications/tools/list_changed").map((n) => ({ method: n.method, params: n.params }));

describe("notifications over real sockets", () => {
	let fixture: AssembledBridge;
	let abs: (relative: string) => string;

	beforeEach(async () => {
		fixture = await startAssembledBridge({
			debounceMs: DEBOUNCE,
			privacy: { folders: ["Private"] },
			populate: (vault) => {
				mkdirSync(join(vault, "Notes"));
				mkdirSync(join(vault, "Private"));
				writeFileSync(join(vault, NOTE), NOTE_TEXT);
				writeFileSync(join(vault, "Notes", "beta.md"), "beta\n");
				writeFileSync(join(vault, "Private", "diary.md"), "secret\n");
			},
		});
		abs = (relative) => join(fixture.vaultPath, ...relative.split("/"));
	});
	afterEach(async () => fixture.stop());

	/**
	 * A client past initialize but without ide_connected: it gets every broadcast but no welcome, so tests of
	 * editor events need not wait for the welcome delay (the welcome has its own tests below).
	 */
	async function readyClient(): Promise<TestClient> {
		const client = await fixture.client();
		client.notifications.length = 0;
		return client;
	}

	it("sends the current note ~CLIENT_WELCOME_DELAY_MS after ide_connected, not before, exactly once", async () => {
		fixture.editor.select(NOTE, { line: 1, character: 0 }, { line: 1, character: 6 });
		const client = await fixture.client();
		const sentAt = Date.now();
		client.notify("ide_connected", { pid: 4242 });
		const welcome = await client.waitForNotification("selection_changed", 2000);
		expect(welcome.receivedAt - sentAt).toBeGreaterThanOrEqual(CLIENT_WELCOME_DELAY_MS - 5);
		expect(welcome.receivedAt - sentAt).toBeLessThan(CLIENT_WELCOME_DELAY_MS + 700);
		expect(welcome.params).toEqual({
			text: "second",
			filePath: abs(NOTE),
			fileUrl: pathToFileURL(abs(NOTE)).href,
			selection: { start: { line: 1, character: 0 }, end: { line: 1, character: 6 }, isEmpty: false },
		});
		await sleep(200);
		expect(received(client)).toHaveLength(1);
	});

	it("sends no welcome to a client that never sends ide_connected, and nothing to one that did not initialize", async () => {
		fixture.editor.open(NOTE);
		const initializedOnly = await fixture.client();
		const bare = await connectOrThrow(fixture.port, { token: fixture.token });
		await sleep(CLIENT_WELCOME_DELAY_MS + 100);
		expect(received(initializedOnly)).toEqual([]);
		fixture.editor.open("Notes/beta.md");
		await initializedOnly.waitForNotification("selection_changed", 1000);
		await sleep(50);
		expect(received(bare)).toEqual([]);
		await bare.close();
	});

	it("open → one cursor-only selection_changed with empty text at once", async () => {
		const client = await readyClient();
		const before = Date.now();
		fixture.editor.open("Notes/beta.md");
		const opened = await client.waitForNotification("selection_changed", 1000);
		expect(opened.receivedAt - before).toBeLessThan(DEBOUNCE);
		expect(opened.params).toEqual({
			text: "",
			filePath: abs("Notes/beta.md"),
			fileUrl: pathToFileURL(abs("Notes/beta.md")).href,
			selection: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 }, isEmpty: true },
		});
		fixture.editor.open("Notes/beta.md");
		await sleep(DEBOUNCE + 50);
		expect(received(client)).toHaveLength(1);
	});

	it("a burst of selection changes arrives once, debounced, with the last selection", async () => {
		const client = await readyClient();
		for (let end = 1; end <= 5; end++) {
			fixture.bridge.notifier.selectionChanged(selectionSnapshot(abs(NOTE), "first".slice(0, end), { line: 0, character: 0 }, { line: 0, character: end }));
			await sleep(10);
		}
		await sleep(DEBOUNCE + 100);
		expect(received(client)).toEqual([
			{
				method: "selection_changed",
				params: {
					text: "first",
					filePath: abs(NOTE),
					fileUrl: pathToFileURL(abs(NOTE)).href,
					selection: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 }, isEmpty: false },
				},
			},
		]);
	});

	it("a select command (a whole gesture) sends the note switch, then the selection without waiting for the debounce", async () => {
		const client = await readyClient();
		const before = Date.now();
		fixture.editor.select(NOTE, { line: 2, character: 5 }, { line: 0, character: 6 });
		await client.waitFor(() => (client.notifications.length >= 2 ? true : undefined), "two notifications", 1000);
		expect(Date.now() - before).toBeLessThan(DEBOUNCE);
		await sleep(DEBOUNCE + 50);
		expect(received(client).map((n) => [n.params?.text, n.params?.selection])).toEqual([
			["", { start: { line: 0, character: 0 }, end: { line: 0, character: 0 }, isEmpty: true }],
			["line\nsecond line\nthird", { start: { line: 0, character: 6 }, end: { line: 2, character: 5 }, isEmpty: false }],
		]);
	});

	it("never broadcasts a private note, in a selection or on open", async () => {
		const client = await readyClient();
		fixture.editor.open("Private/diary.md");
		fixture.editor.select("Private/diary.md", { line: 0, character: 0 }, { line: 0, character: 6 });
		await sleep(DEBOUNCE + 100);
		expect(received(client)).toEqual([]);
	});

	it("broadcasts to every initialized client", async () => {
		const first = await readyClient();
		const second = await readyClient();
		first.notifications.length = 0;
		fixture.editor.open("Notes/beta.md");
		await Promise.all([first.waitForNotification("selection_changed", 1000), second.waitForNotification("selection_changed", 1000)]);
	});

	it("at_mentioned carries exactly {filePath, lineStart, lineEnd} (0-based), or {filePath: '<abs>/'} for a folder", async () => {
		const client = await readyClient();
		expect(fixture.bridge.notifier.mention({ filePath: abs(NOTE), lineStart: 0, lineEnd: 2 })).toBe("sent");
		expect(fixture.bridge.notifier.mention({ filePath: `${abs("Notes")}/` })).toBe("sent");
		expect(fixture.bridge.notifier.mention({ filePath: abs("Private/diary.md"), lineStart: 0, lineEnd: 0 })).toBe("private");
		await client.waitFor(() => (client.notifications.length >= 2 ? true : undefined), "two mentions", 1000);
		await sleep(50);
		expect(received(client)).toEqual([
			{ method: "at_mentioned", params: { filePath: abs(NOTE), lineStart: 0, lineEnd: 2 } },
			{ method: "at_mentioned", params: { filePath: `${abs("Notes")}/` } },
		]);
	});

	it("delivers tags queued while nobody was connected in order after the welcome, spaced apart", async () => {
		const notifier = fixture.bridge.notifier;
		expect(notifier.mention({ filePath: abs(NOTE), lineStart: 1, lineEnd: 1 })).toBe("queued");
		expect(notifier.mention({ filePath: abs("Notes/beta.md") })).toBe("queued");
		expect(notifier.mention({ filePath: `${abs("Notes")}/` })).toBe("queued");
		expect(notifier.queuedMentions).toBe(3);
		fixture.editor.open(NOTE);
		const client = await fixture.client();
		const sentAt = Date.now();
		client.notify("ide_connected", { pid: 1 });
		await client.waitFor(() => (client.notifications.filter((n) => n.method === "at_mentioned").length >= 3 ? true : undefined), "three mentions", 3000);
		const list = received(client);
		expect(list.map((n) => n.method)).toEqual(["selection_changed", "at_mentioned", "at_mentioned", "at_mentioned"]);
		expect(list.slice(1).map((n) => n.params)).toEqual([
			{ filePath: abs(NOTE), lineStart: 1, lineEnd: 1 },
			{ filePath: abs("Notes/beta.md") },
			{ filePath: `${abs("Notes")}/` },
		]);
		const mentions = client.notifications.filter((n) => n.method === "at_mentioned");
		expect((mentions[0]?.receivedAt ?? 0) - sentAt).toBeGreaterThanOrEqual(CLIENT_WELCOME_DELAY_MS - 5);
		expect((mentions[2]?.receivedAt ?? 0) - (mentions[0]?.receivedAt ?? 0)).toBeGreaterThanOrEqual(2 * QUEUED_MENTION_SPACING_MS - 5);
		expect(notifier.queuedMentions).toBe(0);
	});
});
