import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { selectionSnapshot } from "../../src/ide/workspace/selection";
import { CLIENT_WELCOME_DELAY_MS, QUEUED_MENTION_SPACING_MS } from "../../src/ide/ide-limits";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import { connectOrThrow, type TestClient } from "../helpers/test-client";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

const DEBOUNCE = 100;
const NOTE = "Notes/alpha.md";
const NOTE_TEXT = "first line\nsecond line\nthird line\n";

/**
 * Time is Jest's fake clock (timers and Date; sockets stay real), so these tests say what is sent before and
 * after a delay by moving the clock, never by waiting on the wall clock. `settled(client)` is a ping round
 * trip: the server writes to a socket in order, so by its answer everything sent before it has arrived.
 */
async function settled(...clients: TestClient[]): Promise<void> {
	for (const client of clients) expect((await client.request("ping")).result).toEqual({});
}

function advance(ms: number): void {
	jest.advanceTimersByTime(ms);
}

/** Method and params of every notification, without the bridge's own tools/list_changed. */
const received = (client: TestClient) =>
	client.notifications
		.filter((n) => n.method !== "notifications/tools/list_changed")
		.map((n) => ({ method: n.method, params: n.params }));

describe("notifications over real sockets", () => {
	let fixture: AssembledBridge;
	let abs: (relative: string) => string;

	beforeEach(async () => {
		jest.useFakeTimers({ doNotFake: ["nextTick", "setImmediate", "clearImmediate", "queueMicrotask"] });
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
	}, FIXTURE_TIMEOUT_MS);
	afterEach(async () => {
		jest.useRealTimers();
		await fixture?.stop();
	});

	/**
	 * A client past initialize but without ide_connected: it gets every broadcast but no welcome, so tests of
	 * editor events need not wait for the welcome delay (the welcome has its own tests below).
	 */
	async function readyClient(): Promise<TestClient> {
		const client = await fixture.client();
		client.notifications.length = 0;
		return client;
	}

	it("sends the current note CLIENT_WELCOME_DELAY_MS after ide_connected, not before, exactly once", async () => {
		fixture.editor.select(NOTE, { line: 1, character: 0 }, { line: 1, character: 6 });
		const client = await fixture.client();
		client.notify("ide_connected", { pid: 4242 });
		await settled(client);
		advance(CLIENT_WELCOME_DELAY_MS - 1);
		await settled(client);
		expect(received(client)).toEqual([]);
		advance(1);
		await settled(client);
		expect(received(client)).toEqual([
			{
				method: "selection_changed",
				params: {
					text: "second",
					filePath: abs(NOTE),
					fileUrl: pathToFileURL(abs(NOTE)).href,
					selection: { start: { line: 1, character: 0 }, end: { line: 1, character: 6 }, isEmpty: false },
				},
			},
		]);
		advance(CLIENT_WELCOME_DELAY_MS * 10);
		await settled(client);
		expect(received(client)).toHaveLength(1);
	});

	it("sends no welcome to a client that never sends ide_connected, and nothing to one that did not initialize", async () => {
		fixture.editor.open(NOTE);
		const initializedOnly = await fixture.client();
		const bare = await connectOrThrow(fixture.port, { token: fixture.token });
		advance(CLIENT_WELCOME_DELAY_MS * 10);
		await settled(initializedOnly, bare);
		expect(received(initializedOnly)).toEqual([]);
		fixture.editor.open("Notes/beta.md");
		await settled(initializedOnly, bare);
		expect(received(initializedOnly).map((n) => n.method)).toEqual(["selection_changed"]);
		expect(received(bare)).toEqual([]);
		await bare.close();
	});

	it("open → one cursor-only selection_changed with empty text at once, before any time passes", async () => {
		const client = await readyClient();
		fixture.editor.open("Notes/beta.md");
		await settled(client);
		expect(received(client)).toEqual([
			{
				method: "selection_changed",
				params: {
					text: "",
					filePath: abs("Notes/beta.md"),
					fileUrl: pathToFileURL(abs("Notes/beta.md")).href,
					selection: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 }, isEmpty: true },
				},
			},
		]);
		fixture.editor.open("Notes/beta.md");
		advance(DEBOUNCE * 10);
		await settled(client);
		expect(received(client)).toHaveLength(1);
	});

	it("a burst of selection changes arrives once, DEBOUNCE after the last change, with the last selection", async () => {
		const client = await readyClient();
		for (let end = 1; end <= 5; end++) {
			fixture.bridge.notifier.selectionChanged(
				selectionSnapshot(
					abs(NOTE),
					"first".slice(0, end),
					{ line: 0, character: 0 },
					{ line: 0, character: end },
				),
			);
			advance(10);
		}
		advance(DEBOUNCE - 11);
		await settled(client);
		expect(received(client)).toEqual([]);
		advance(1);
		await settled(client);
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
		advance(DEBOUNCE * 10);
		await settled(client);
		expect(received(client)).toHaveLength(1);
	});

	it("a select command (a whole gesture) sends the note switch, then the selection, before any time passes", async () => {
		const client = await readyClient();
		fixture.editor.select(NOTE, { line: 2, character: 5 }, { line: 0, character: 6 });
		await settled(client);
		const expected = [
			["", { start: { line: 0, character: 0 }, end: { line: 0, character: 0 }, isEmpty: true }],
			[
				"line\nsecond line\nthird",
				{ start: { line: 0, character: 6 }, end: { line: 2, character: 5 }, isEmpty: false },
			],
		];
		expect(received(client).map((n) => [n.params?.text, n.params?.selection])).toEqual(expected);
		advance(DEBOUNCE * 10);
		await settled(client);
		expect(received(client).map((n) => [n.params?.text, n.params?.selection])).toEqual(expected);
	});

	it("never broadcasts a private note, in a selection or on open", async () => {
		const client = await readyClient();
		fixture.editor.open("Private/diary.md");
		fixture.editor.select("Private/diary.md", { line: 0, character: 0 }, { line: 0, character: 6 });
		advance(DEBOUNCE * 10);
		await settled(client);
		expect(received(client)).toEqual([]);
	});

	it("broadcasts to every initialized client", async () => {
		const first = await readyClient();
		const second = await readyClient();
		first.notifications.length = 0;
		fixture.editor.open("Notes/beta.md");
		await settled(first, second);
		expect(received(first).map((n) => n.params?.filePath)).toEqual([abs("Notes/beta.md")]);
		expect(received(second).map((n) => n.params?.filePath)).toEqual([abs("Notes/beta.md")]);
	});

	it("sends every client a selection as the bytes JSON.stringify writes for it, the same frame to each", async () => {
		const clients = [await readyClient(), await readyClient()];
		const frames = clients.map((client) => {
			const texts: string[] = [];
			client.ws.on("message", (data: Buffer) => {
				const text = data.toString("utf8");
				if (text.includes('"method":"selection_changed"')) texts.push(text);
			});
			return texts;
		});
		fixture.editor.select(NOTE, { line: 2, character: 5 }, { line: 0, character: 6 });
		await settled(...clients);
		const opened = selectionSnapshot(abs(NOTE), "", { line: 0, character: 0 }, { line: 0, character: 0 });
		const selected = selectionSnapshot(
			abs(NOTE),
			"line\nsecond line\nthird",
			{ line: 2, character: 5 },
			{ line: 0, character: 6 },
		);
		const expected = [opened, selected].map((params) =>
			JSON.stringify({ jsonrpc: "2.0", method: "selection_changed", params }),
		);
		expect(frames).toEqual([expected, expected]);
	});

	it("at_mentioned carries exactly {filePath, lineStart, lineEnd} (0-based), or {filePath: '<abs>/'} for a folder", async () => {
		const client = await readyClient();
		expect(fixture.bridge.notifier.mention({ filePath: abs(NOTE), lineStart: 0, lineEnd: 2 })).toBe("sent");
		expect(fixture.bridge.notifier.mention({ filePath: `${abs("Notes")}/` })).toBe("sent");
		expect(fixture.bridge.notifier.mention({ filePath: abs("Private/diary.md"), lineStart: 0, lineEnd: 0 })).toBe(
			"private",
		);
		await settled(client);
		expect(received(client)).toEqual([
			{ method: "at_mentioned", params: { filePath: abs(NOTE), lineStart: 0, lineEnd: 2 } },
			{ method: "at_mentioned", params: { filePath: `${abs("Notes")}/` } },
		]);
	});

	it("delivers tags queued while nobody was connected in order after the welcome, QUEUED_MENTION_SPACING_MS apart", async () => {
		const notifier = fixture.bridge.notifier;
		expect(notifier.mention({ filePath: abs(NOTE), lineStart: 1, lineEnd: 1 })).toBe("queued");
		expect(notifier.mention({ filePath: abs("Notes/beta.md") })).toBe("queued");
		expect(notifier.mention({ filePath: `${abs("Notes")}/` })).toBe("queued");
		expect(notifier.queuedMentions).toBe(3);
		fixture.editor.open(NOTE);
		const client = await fixture.client();
		client.notify("ide_connected", { pid: 1 });
		await settled(client);
		const methodsAfter = async (ms: number): Promise<string[]> => {
			advance(ms);
			await settled(client);
			return received(client).map((n) => n.method);
		};
		expect(await methodsAfter(CLIENT_WELCOME_DELAY_MS - 1)).toEqual([]);
		expect(await methodsAfter(1)).toEqual(["selection_changed", "at_mentioned"]);
		expect(await methodsAfter(QUEUED_MENTION_SPACING_MS - 1)).toEqual(["selection_changed", "at_mentioned"]);
		expect(await methodsAfter(1)).toEqual(["selection_changed", "at_mentioned", "at_mentioned"]);
		expect(await methodsAfter(QUEUED_MENTION_SPACING_MS)).toEqual([
			"selection_changed",
			"at_mentioned",
			"at_mentioned",
			"at_mentioned",
		]);
		expect(
			received(client)
				.slice(1)
				.map((n) => n.params),
		).toEqual([
			{ filePath: abs(NOTE), lineStart: 1, lineEnd: 1 },
			{ filePath: abs("Notes/beta.md") },
			{ filePath: `${abs("Notes")}/` },
		]);
		expect(notifier.queuedMentions).toBe(0);
	});
});
