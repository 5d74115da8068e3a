import { Notifier, type NotifierOptions } from "../../src/ide/notifier";
import {
	cursorSnapshot,
	selectionSnapshot,
	type Mention,
	type SelectionSnapshot,
} from "../../src/ide/workspace/selection";
import { privacyByPath } from "../helpers/path-privacy";

interface Sent {
	to: "all" | number;
	method: string;
	params: Record<string, unknown>;
	at: number;
}

const DEBOUNCE = 100;
const WELCOME = 300;
const SPACING = 25;
const TTL = 60_000;
const MAX_QUEUE = 3;

/** A Notifier over plain fakes: every notification is recorded with the fake clock's time. */
function setUp(overrides: Partial<NotifierOptions> = {}) {
	const sent: Sent[] = [];
	const state = {
		clients: false,
		current: undefined as SelectionSnapshot | undefined,
		privatePaths: new Set<string>(),
	};
	const notifier = new Notifier({
		broadcast: (method, params) => sent.push({ to: "all", method, params, at: Date.now() }),
		notifyClient: (sessionId, method, params) => sent.push({ to: sessionId, method, params, at: Date.now() }),
		hasClients: () => state.clients,
		currentSelection: () => state.current,
		privacy: privacyByPath((path) => [...state.privatePaths].some((p) => path === p || path.startsWith(`${p}/`))),
		debounceMs: DEBOUNCE,
		welcomeDelayMs: WELCOME,
		maxQueuedMentions: MAX_QUEUE,
		queuedMentionTtlMs: TTL,
		queuedMentionSpacingMs: SPACING,
		now: () => Date.now(),
		...overrides,
	});
	return { notifier, sent, state, start: Date.now() };
}

const at = (line: number, character: number) => ({ line, character });
const sel = (path: string, text: string, from: [number, number], to: [number, number]) =>
	selectionSnapshot(path, text, at(...from), at(...to));

describe("Notifier", () => {
	beforeEach(() => jest.useFakeTimers({ now: new Date("2026-01-01T00:00:00Z") }));
	afterEach(() => jest.useRealTimers());

	describe("selection_changed", () => {
		it("sends nothing before the debounce time, then the latest selection exactly once", () => {
			const { notifier, sent } = setUp();
			notifier.selectionChanged(sel("/v/a.md", "a", [0, 0], [0, 1]));
			jest.advanceTimersByTime(60);
			notifier.selectionChanged(sel("/v/a.md", "ab", [0, 0], [0, 2]));
			jest.advanceTimersByTime(DEBOUNCE - 1);
			expect(sent).toEqual([]);
			jest.advanceTimersByTime(1);
			expect(sent).toHaveLength(1);
			expect(sent[0]).toMatchObject({
				to: "all",
				method: "selection_changed",
				params: sel("/v/a.md", "ab", [0, 0], [0, 2]),
			});
			jest.advanceTimersByTime(10_000);
			expect(sent).toHaveLength(1);
			expect(notifier.latestSelection).toEqual(sel("/v/a.md", "ab", [0, 0], [0, 2]));
		});

		it("keeps postponing while the selection keeps changing faster than the debounce", () => {
			const { notifier, sent } = setUp();
			for (let i = 1; i <= 10; i++) {
				notifier.selectionChanged(sel("/v/a.md", "x".repeat(i), [0, 0], [0, i]));
				jest.advanceTimersByTime(DEBOUNCE - 10);
			}
			expect(sent).toEqual([]);
			jest.advanceTimersByTime(10);
			expect(sent.map((s) => s.params.text)).toEqual(["x".repeat(10)]);
		});

		it("flush (end of a gesture) sends at once, and the debounce timer then sends nothing more", () => {
			const { notifier, sent, start } = setUp();
			notifier.selectionChanged(sel("/v/a.md", "quick", [1, 0], [1, 5]));
			jest.advanceTimersByTime(5);
			notifier.flush();
			expect(sent).toHaveLength(1);
			expect(sent[0]?.at).toBe(start + 5);
			jest.advanceTimersByTime(DEBOUNCE * 3);
			expect(sent).toHaveLength(1);
		});

		it("flush with nothing pending sends nothing", () => {
			const { notifier, sent } = setUp();
			notifier.flush();
			notifier.selectionChanged(sel("/v/a.md", "x", [0, 0], [0, 1]));
			notifier.flush();
			notifier.flush();
			expect(sent).toHaveLength(1);
		});

		it("deduplicates: the same selection again is not resent, a different one is, and returning to the first is", () => {
			const { notifier, sent } = setUp();
			const first = sel("/v/a.md", "one", [0, 0], [0, 3]);
			const second = sel("/v/a.md", "two", [1, 0], [1, 3]);
			for (const snapshot of [first, first, second, second, first]) {
				notifier.selectionChanged(snapshot);
				jest.advanceTimersByTime(DEBOUNCE);
			}
			expect(sent.map((s) => s.params.text)).toEqual(["one", "two", "one"]);
		});

		it("treats the same range in another note, or the same text at another range, as a change", () => {
			const { notifier, sent } = setUp();
			notifier.selectionChanged(sel("/v/a.md", "x", [0, 0], [0, 1]));
			notifier.flush();
			notifier.selectionChanged(sel("/v/b.md", "x", [0, 0], [0, 1]));
			notifier.flush();
			notifier.selectionChanged(sel("/v/b.md", "x", [3, 0], [3, 1]));
			notifier.flush();
			expect(sent.map((s) => [s.params.filePath, (s.params.selection as { start: unknown }).start])).toEqual([
				["/v/a.md", at(0, 0)],
				["/v/b.md", at(0, 0)],
				["/v/b.md", at(3, 0)],
			]);
		});

		it("never sends a private note's selection, and latestSelection does not reveal it", () => {
			const { notifier, sent, state } = setUp();
			state.privatePaths.add("/v/Private");
			notifier.selectionChanged(sel("/v/Private/diary.md", "secret", [0, 0], [0, 6]));
			jest.advanceTimersByTime(DEBOUNCE);
			notifier.activeNoteChanged(cursorSnapshot("/v/Private/diary.md"));
			expect(sent).toEqual([]);
			expect(notifier.latestSelection).toBeUndefined();
		});

		it("setDebounceMs changes the quiet time of the next change", () => {
			const { notifier, sent } = setUp();
			notifier.setDebounceMs(500);
			notifier.selectionChanged(sel("/v/a.md", "x", [0, 0], [0, 1]));
			jest.advanceTimersByTime(499);
			expect(sent).toEqual([]);
			jest.advanceTimersByTime(1);
			expect(sent).toHaveLength(1);
			notifier.setDebounceMs(10);
			notifier.selectionChanged(sel("/v/a.md", "y", [0, 1], [0, 2]));
			jest.advanceTimersByTime(10);
			expect(sent).toHaveLength(2);
		});
	});

	describe("activeNoteChanged", () => {
		it("sends the cursor-only form at once (empty text, start = end = the cursor), even if given a selection", () => {
			const { notifier, sent } = setUp();
			notifier.activeNoteChanged(sel("/v/b.md", "leftover", [2, 1], [4, 0]));
			expect(sent).toHaveLength(1);
			expect(sent[0]?.params).toEqual({
				text: "",
				filePath: "/v/b.md",
				fileUrl: "file:///v/b.md",
				selection: { start: at(2, 1), end: at(2, 1), isEmpty: true },
			});
		});

		it("drops the previous note's pending selection", () => {
			const { notifier, sent } = setUp();
			notifier.selectionChanged(sel("/v/a.md", "old", [0, 0], [0, 3]));
			jest.advanceTimersByTime(50);
			notifier.activeNoteChanged(cursorSnapshot("/v/b.md"));
			jest.advanceTimersByTime(DEBOUNCE * 2);
			notifier.flush();
			expect(sent.map((s) => [s.params.filePath, s.params.text])).toEqual([["/v/b.md", ""]]);
		});

		it("switching back and forth between notes sends each switch", () => {
			const { notifier, sent } = setUp();
			notifier.activeNoteChanged(cursorSnapshot("/v/a.md"));
			notifier.activeNoteChanged(cursorSnapshot("/v/b.md"));
			notifier.activeNoteChanged(cursorSnapshot("/v/a.md"));
			notifier.activeNoteChanged(cursorSnapshot("/v/a.md"));
			expect(sent.map((s) => s.params.filePath)).toEqual(["/v/a.md", "/v/b.md", "/v/a.md"]);
		});
	});

	describe("mentions", () => {
		it("are broadcast at once, exactly as given, when a client is connected", () => {
			const { notifier, sent, state } = setUp();
			state.clients = true;
			expect(notifier.mention({ filePath: "/v/a.md", lineStart: 0, lineEnd: 4 })).toBe("sent");
			expect(notifier.mention({ filePath: "/v/Folder/" })).toBe("sent");
			expect(sent.map((s) => [s.to, s.method, s.params])).toEqual([
				["all", "at_mentioned", { filePath: "/v/a.md", lineStart: 0, lineEnd: 4 }],
				["all", "at_mentioned", { filePath: "/v/Folder/" }],
			]);
			expect(notifier.queuedMentions).toBe(0);
		});

		it("judge the location the caller resolved, not the path again, when it names the tagged note", () => {
			const judged: unknown[] = [];
			const { notifier, state } = setUp({ privacy: { hidesPath: (path) => (judged.push(path), false) } });
			state.clients = true;
			const location = { relative: "a.md", absolute: "/v/a.md", realRelative: "Real/a.md" };
			expect(notifier.mention({ filePath: "/v/a.md", lineStart: 1, lineEnd: 1 }, location)).toBe("sent");
			// A folder's tag ends in "/": the location of its path does not name it, so the path is judged.
			expect(notifier.mention({ filePath: "/v/Folder/" }, { relative: "Folder", absolute: "/v/Folder" })).toBe(
				"sent",
			);
			expect(judged).toEqual([location, "/v/Folder/"]);
		});

		it("of a private note or folder are neither sent nor queued", () => {
			const { notifier, sent, state } = setUp();
			state.privatePaths.add("/v/Private");
			expect(notifier.mention({ filePath: "/v/Private/a.md" })).toBe("private");
			state.clients = true;
			expect(notifier.mention({ filePath: "/v/Private/a.md", lineStart: 1, lineEnd: 2 })).toBe("private");
			expect(notifier.mention({ filePath: "/v/Private/" })).toBe("private");
			expect(sent).toEqual([]);
			expect(notifier.queuedMentions).toBe(0);
		});

		it("are queued without a client, bounded: the oldest are dropped", () => {
			const { notifier, sent } = setUp();
			for (let i = 1; i <= MAX_QUEUE + 2; i++) expect(notifier.mention(note(i))).toBe("queued");
			expect(sent).toEqual([]);
			expect(notifier.queuedMentions).toBe(MAX_QUEUE);
		});

		it("expire after the TTL (an entry exactly TTL old is still kept)", () => {
			const { notifier } = setUp();
			notifier.mention(note(1));
			jest.advanceTimersByTime(TTL / 2);
			notifier.mention(note(2));
			jest.advanceTimersByTime(TTL / 2);
			expect(notifier.queuedMentions).toBe(2);
			jest.advanceTimersByTime(1);
			expect(notifier.queuedMentions).toBe(1);
			jest.advanceTimersByTime(TTL / 2);
			expect(notifier.queuedMentions).toBe(0);
		});
	});

	describe("clientReady", () => {
		it("after the welcome delay (not before) sends the current selection to that one client only", () => {
			const { notifier, sent, state, start } = setUp();
			state.clients = true;
			state.current = sel("/v/a.md", "ctx", [3, 0], [3, 3]);
			notifier.clientReady(7);
			jest.advanceTimersByTime(WELCOME - 1);
			expect(sent).toEqual([]);
			jest.advanceTimersByTime(1);
			expect(sent).toEqual([{ to: 7, method: "selection_changed", params: state.current, at: start + WELCOME }]);
		});

		it("sends the welcome even if the same selection was already broadcast (a new client has not seen it)", () => {
			const { notifier, sent, state } = setUp();
			state.clients = true;
			state.current = sel("/v/a.md", "ctx", [3, 0], [3, 3]);
			notifier.selectionChanged(state.current);
			notifier.flush();
			notifier.clientReady(2);
			jest.advanceTimersByTime(WELCOME);
			expect(sent.map((s) => s.to)).toEqual(["all", 2]);
		});

		it("reads the selection when the delay ends, not when the client connected", () => {
			const { notifier, sent, state } = setUp();
			state.current = cursorSnapshot("/v/old.md");
			notifier.clientReady(1);
			jest.advanceTimersByTime(WELCOME / 2);
			state.current = cursorSnapshot("/v/new.md");
			jest.advanceTimersByTime(WELCOME / 2);
			expect(sent.map((s) => s.params.filePath)).toEqual(["/v/new.md"]);
		});

		it("sends no welcome without an active note (a private one reads as none: the assembly filters the feed)", () => {
			const { notifier, sent } = setUp();
			notifier.clientReady(1);
			jest.advanceTimersByTime(WELCOME);
			expect(sent).toEqual([]);
		});

		it("then delivers queued mentions in order, spaced, after the welcome selection", () => {
			const { notifier, sent, state, start } = setUp();
			notifier.mention(note(1));
			notifier.mention(note(2));
			notifier.mention({ filePath: "/v/Folder/" });
			state.clients = true;
			state.current = cursorSnapshot("/v/a.md");
			notifier.clientReady(4);
			jest.advanceTimersByTime(WELCOME + 2 * SPACING);
			expect(sent.map((s) => [s.to, s.method, s.params.filePath, s.at - start])).toEqual([
				[4, "selection_changed", "/v/a.md", WELCOME],
				["all", "at_mentioned", "/v/n1.md", WELCOME],
				["all", "at_mentioned", "/v/n2.md", WELCOME + SPACING],
				["all", "at_mentioned", "/v/Folder/", WELCOME + 2 * SPACING],
			]);
			expect(sent[1]?.params).toEqual({ filePath: "/v/n1.md", lineStart: 1, lineEnd: 2 });
			expect(notifier.queuedMentions).toBe(0);
		});

		it("drops a queued tag whose note became private while it waited, and delivers the others", () => {
			const { notifier, sent, state } = setUp();
			notifier.mention(note(1));
			notifier.mention(note(2));
			notifier.mention(note(3));
			state.privatePaths.add("/v/n1.md");
			state.privatePaths.add("/v/n3.md");
			state.clients = true;
			notifier.clientReady(1);
			jest.advanceTimersByTime(WELCOME + SPACING * 5);
			expect(sent.map((s) => s.params.filePath)).toEqual(["/v/n2.md"]);
			expect(notifier.queuedMentions).toBe(0);
		});

		it("does not deliver mentions that expired while waiting", () => {
			const { notifier, sent, state } = setUp();
			notifier.mention(note(1));
			jest.advanceTimersByTime(TTL - WELCOME + 1);
			notifier.mention(note(2));
			state.clients = true;
			notifier.clientReady(1);
			jest.advanceTimersByTime(WELCOME + SPACING * 5);
			expect(sent.map((s) => s.params.filePath)).toEqual(["/v/n2.md"]);
		});

		it("delivers the queue only once, to the first client that becomes ready", () => {
			const { notifier, sent, state } = setUp();
			notifier.mention(note(1));
			state.clients = true;
			notifier.clientReady(1);
			notifier.clientReady(2);
			jest.advanceTimersByTime(WELCOME * 2);
			expect(sent.filter((s) => s.method === "at_mentioned")).toHaveLength(1);
		});

		it("keeps the order when the user tags again while queued tags are still being delivered", () => {
			const { notifier, sent, state } = setUp();
			notifier.mention(note(1));
			notifier.mention(note(2));
			// The client finished initialize (so hasClients is true) but its welcome delay has not ended.
			state.clients = true;
			notifier.clientReady(1);
			jest.advanceTimersByTime(WELCOME / 2);
			notifier.mention(note(3));
			jest.advanceTimersByTime(WELCOME / 2);
			notifier.mention(note(4));
			jest.advanceTimersByTime(SPACING * 10);
			notifier.mention(note(5));
			expect(sent.filter((s) => s.method === "at_mentioned").map((s) => s.params.filePath)).toEqual([
				"/v/n1.md",
				"/v/n2.md",
				"/v/n3.md",
				"/v/n4.md",
				"/v/n5.md",
			]);
		});
	});

	describe("mentions around a connect", () => {
		it("a tag made during a new client's welcome delay is held until after the welcome (the CLI drops early notifications)", () => {
			const { notifier, sent, state, start } = setUp();
			state.clients = true;
			state.current = cursorSnapshot("/v/a.md");
			notifier.clientReady(1);
			jest.advanceTimersByTime(10);
			expect(notifier.mention(note(1))).toBe("sent");
			expect(sent).toEqual([]);
			jest.advanceTimersByTime(WELCOME);
			expect(sent.map((s) => [s.method, s.at - start])).toEqual([
				["selection_changed", WELCOME],
				["at_mentioned", WELCOME],
			]);
		});

		it("queued tags stay queued if the client left before its welcome, and go to the next client", () => {
			const { notifier, sent, state } = setUp();
			notifier.mention(note(1));
			notifier.mention(note(2));
			state.clients = true;
			notifier.clientReady(1);
			state.clients = false;
			jest.advanceTimersByTime(WELCOME + SPACING * 4);
			expect(sent).toEqual([]);
			expect(notifier.queuedMentions).toBe(2);
			state.clients = true;
			notifier.clientReady(2);
			jest.advanceTimersByTime(WELCOME + SPACING);
			expect(sent.map((s) => s.params.filePath)).toEqual(["/v/n1.md", "/v/n2.md"]);
		});

		it("a client that leaves in the middle of the delivery keeps the rest queued", () => {
			const { notifier, sent, state } = setUp();
			for (let i = 1; i <= 3; i++) notifier.mention(note(i));
			state.clients = true;
			notifier.clientReady(1);
			jest.advanceTimersByTime(WELCOME);
			state.clients = false;
			jest.advanceTimersByTime(SPACING * 4);
			expect(sent.map((s) => s.params.filePath)).toEqual(["/v/n1.md"]);
			expect(notifier.queuedMentions).toBe(2);
		});
	});

	describe("dispose", () => {
		it("cancels the pending selection, the welcome and queued deliveries", () => {
			const { notifier, sent, state } = setUp();
			notifier.mention(note(1));
			notifier.mention(note(2));
			state.clients = true;
			state.current = cursorSnapshot("/v/a.md");
			notifier.clientReady(1);
			jest.advanceTimersByTime(WELCOME);
			const afterWelcome = sent.length;
			notifier.selectionChanged(sel("/v/a.md", "x", [0, 0], [0, 1]));
			notifier.clientReady(2);
			notifier.dispose();
			expect(jest.getTimerCount()).toBe(0);
			jest.advanceTimersByTime(TTL);
			notifier.flush();
			expect(sent).toHaveLength(afterWelcome);
		});
	});

	function note(n: number): Mention {
		return { filePath: `/v/n${n}.md`, lineStart: n, lineEnd: n + 1 };
	}
});
