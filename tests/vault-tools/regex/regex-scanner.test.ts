import fc from "fast-check";
import { LineTable } from "../../../src/vault/markdown/line-table";
import { nodeRegexThread } from "../../../src/vault-tools/regex/node-regex-thread";
import {
	RegexScanner,
	type RegexScan,
	type RegexScanOutcome,
	type ScannerTimers,
} from "../../../src/vault-tools/regex/regex-scanner";
import type { RegexThread, RegexThreadFactory } from "../../../src/vault-tools/regex/regex-thread";
import { CATASTROPHIC_QUERY, PROSE_LINE, SETTLES_WITHIN_MS } from "../catastrophic-regex";

/**
 * What the search tool did in the main thread before the workers: every match with exec, the first on each line
 * kept. One change: an empty match steps over a whole code point under the u or v flag (before, it stepped into a
 * surrogate pair, where exec found the same empty match again, for ever).
 */
function firstMatchPerLineInThread(pattern: RegExp, text: string): number[] {
	const table = new LineTable(text);
	const starts: number[] = [];
	let lastLine = -1;
	pattern.lastIndex = 0;
	for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
		const line = table.lineAt(match.index);
		if (line !== lastLine) {
			starts.push(match.index);
			lastLine = line;
		}
		if (match[0] === "")
			pattern.lastIndex += pattern.unicode && (text.codePointAt(pattern.lastIndex) ?? 0) > 0xffff ? 2 : 1;
	}
	return starts;
}

async function scanTexts(
	scanner: RegexScanner,
	pattern: RegExp,
	texts: readonly (string | undefined)[],
	more: Partial<RegexScan> = {},
): Promise<{ outcome: RegexScanOutcome; found: Map<number, number[]> }> {
	const found = new Map<number, number[]>();
	const outcome = await scanner.scan({
		pattern,
		count: texts.length,
		text: (index) => texts[index],
		budgetMs: 20_000,
		found: (index, starts) => found.set(index, [...starts]),
		...more,
	});
	return { outcome, found };
}

/** nodeRegexThread, counting the threads started and terminated. */
function countingThreads(): { factory: RegexThreadFactory; started: () => number; terminated: () => number } {
	let started = 0;
	let terminated = 0;
	return {
		factory: async (events) => {
			const thread = await nodeRegexThread(events);
			started++;
			return {
				post: (request) => thread.post(request),
				busy: (busy) => thread.busy(busy),
				terminate: () => {
					terminated++;
					thread.terminate();
				},
			};
		},
		started: () => started,
		terminated: () => terminated,
	};
}

const catastrophic = new RegExp(CATASTROPHIC_QUERY, "gm");
/** More than one batch (64 K characters) that the catastrophic pattern matches at once (\s takes the line ends: one match). */
const EASY_BATCH = "garden river notes\n".repeat(4000);

describe("RegexScanner: regular expressions in worker threads with a hard stop", () => {
	const scanners: RegexScanner[] = [];
	const scannerWith = (options: ConstructorParameters<typeof RegexScanner>[0] = {}): RegexScanner => {
		const scanner = new RegexScanner(options);
		scanners.push(scanner);
		return scanner;
	};
	afterEach(() => {
		for (const scanner of scanners.splice(0)) scanner.dispose();
	});

	it("tells its owner once each Node thread runs (the stdio server sets its heap flags again then)", async () => {
		let started = 0;
		const scanner = scannerWith({ thread: nodeRegexThread, threadStarted: () => started++ });
		const { outcome, found } = await scanTexts(scanner, /river/gm, ["a river\n", "none"]);
		expect(outcome.kind).toBe("done");
		expect([...found.keys()]).toEqual([0]);
		expect(started).toBe(1);
	});

	it(
		"finds the first match on each line exactly where the in-thread search found it",
		async () => {
			const scanner = scannerWith();
			const pieces = ["a", "b", "ab", " ", "\n", "\r", "\r\n", "é", "😀", "A"];
			const sources = [
				"a",
				"a+",
				"^",
				"$",
				"b*",
				"a\\s*b",
				"(?<=a)b",
				"(a)\\1",
				"\\n",
				"[^]",
				"a$",
				"^b",
				"x?",
				"\\r?\\n",
				"b.a",
				"[\\s\\S]{2}",
			];
			const flagSets = ["gm", "gmu", "gmi", "gms", "gmsu"];
			await fc.assert(
				fc.asyncProperty(
					fc.array(
						fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join("")),
						{ minLength: 1, maxLength: 6 },
					),
					fc.constantFrom(...sources),
					fc.constantFrom(...flagSets),
					async (texts, source, flags) => {
						const { outcome, found } = await scanTexts(scanner, new RegExp(source, flags), texts);
						expect(outcome).toEqual({ kind: "done" });
						const expected = new Map<number, number[]>();
						texts.forEach((text, index) => {
							const starts = firstMatchPerLineInThread(new RegExp(source, flags), text);
							if (starts.length > 0) expected.set(index, starts);
						});
						expect(found).toEqual(expected);
					},
				),
				{ numRuns: 100 },
			);
		},
		SETTLES_WITHIN_MS,
	);

	it("steps over an emoji after an empty match under the u flag (exec looped for ever there before)", async () => {
		const { outcome, found } = await scanTexts(scannerWith(), /x?/gmu, ["a😀b", "😀\n😀"], { budgetMs: 5000 });
		expect(outcome).toEqual({ kind: "done" });
		expect(found).toEqual(
			new Map([
				[0, [0]],
				[1, [0, 3]],
			]),
		);
	});

	it("skips texts that are gone and reads texts that come as promises", async () => {
		const scanner = scannerWith();
		const texts = ["x apple", undefined, "apple\napple pie"];
		const { outcome, found } = await scanTexts(scanner, /apple/gm, texts, {
			text: (index) => Promise.resolve(texts[index]),
		});
		expect(outcome).toEqual({ kind: "done" });
		expect(found).toEqual(
			new Map([
				[0, [2]],
				[2, [0, 6]],
			]),
		);
	});

	it(
		"stops a catastrophic pattern at its budget, terminates that worker, and runs the next scan on a new one",
		async () => {
			const threads = countingThreads();
			const scanner = scannerWith({ thread: threads.factory });
			// The worker is started first, so that on a loaded machine its start does not eat the budget below.
			expect((await scanTexts(scanner, /warm/gm, ["warm"])).outcome).toEqual({ kind: "done" });
			const { outcome, found } = await scanTexts(scanner, catastrophic, [EASY_BATCH, PROSE_LINE, "after"], {
				budgetMs: 300,
			});
			// The first batch (the easy text) was answered; the stuck one was not.
			expect(outcome).toEqual({ kind: "stopped", why: "budget", searched: 1 });
			expect(found).toEqual(new Map([[0, [0]]]));
			expect(threads.terminated()).toBe(1);

			const next = await scanTexts(scanner, /after/gm, [PROSE_LINE, "after"]);
			expect(next.outcome).toEqual({ kind: "done" });
			expect(next.found).toEqual(new Map([[1, [0]]]));
			expect(threads.started()).toBe(2);
		},
		SETTLES_WITHIN_MS,
	);

	it(
		"leaves the main thread free while a worker is stuck: a timer set after the scan started fires first",
		async () => {
			const scanner = scannerWith();
			const order: string[] = [];
			const scan = scanTexts(scanner, catastrophic, [PROSE_LINE], { budgetMs: 1500 }).then(({ outcome }) => {
				order.push("scan");
				return outcome;
			});
			const timer = new Promise<void>((resolve) => setTimeout(resolve, 50)).then(() => order.push("timer"));
			const [outcome] = await Promise.all([scan, timer]);
			expect(outcome).toMatchObject({ kind: "stopped", why: "budget" });
			expect(order).toEqual(["timer", "scan"]);
		},
		SETTLES_WITHIN_MS,
	);

	it(
		"stops at once when the call is cancelled, and terminates the worker",
		async () => {
			const threads = countingThreads();
			const scanner = scannerWith({ thread: threads.factory });
			const controller = new AbortController();
			const scan = scanTexts(scanner, catastrophic, [PROSE_LINE], { signal: controller.signal });
			setTimeout(() => controller.abort(), 100);
			expect((await scan).outcome).toEqual({ kind: "stopped", why: "cancelled", searched: 0 });
			expect(threads.terminated()).toBe(1);
		},
		SETTLES_WITHIN_MS,
	);

	it("answers as failed, never by running in the main thread, when no worker can start or one dies", async () => {
		const cannotStart = scannerWith({
			thread: () => {
				throw new Error("Worker is not defined");
			},
		});
		expect((await scanTexts(cannotStart, /a/gm, ["a"])).outcome).toEqual({
			kind: "failed",
			message: "a worker thread could not start: Worker is not defined",
		});

		const dies = scannerWith({
			thread: (events): RegexThread => ({
				post: () => setTimeout(() => events.failed(new Error("the regex worker stopped (exit code 1)")), 0),
				busy: () => undefined,
				terminate: () => undefined,
			}),
		});
		expect((await scanTexts(dies, /a/gm, ["a"])).outcome).toEqual({
			kind: "failed",
			message: "the regex worker stopped (exit code 1)",
		});
	});

	it("runs at most maxThreads workers; a further scan waits for one and reuses it", async () => {
		const threads = countingThreads();
		const scanner = scannerWith({ thread: threads.factory, maxThreads: 1 });
		const [first, second] = await Promise.all([
			scanTexts(scanner, /a/gm, ["a"]),
			scanTexts(scanner, /b/gm, ["b b"]),
		]);
		expect([first.outcome, second.outcome]).toEqual([{ kind: "done" }, { kind: "done" }]);
		expect([first.found, second.found]).toEqual([new Map([[0, [0]]]), new Map([[0, [0]]])]);
		expect(threads.started()).toBe(1);
	});

	it("ends an idle worker after idleMs, and every worker on dispose", async () => {
		const threads = countingThreads();
		const pending = new Map<number, () => void>();
		let nextHandle = 1;
		const timers: ScannerTimers = {
			set: (callback) => {
				const handle = nextHandle++;
				pending.set(handle, callback);
				return handle;
			},
			clear: (handle) => pending.delete(handle as number),
		};
		const scanner = scannerWith({ thread: threads.factory, timers, idleMs: 1000 });
		await scanTexts(scanner, /a/gm, ["a"]);
		expect(threads.terminated()).toBe(0);
		// The only timer left is the idle one (the budget's was cleared).
		expect(pending.size).toBe(1);
		for (const callback of pending.values()) callback();
		expect(threads.terminated()).toBe(1);

		await scanTexts(scanner, /a/gm, ["a"]);
		scanner.dispose();
		expect(threads.terminated()).toBe(2);
		expect((await scanTexts(scanner, /a/gm, ["a"])).outcome).toEqual({
			kind: "failed",
			message: "the vault tools are shutting down",
		});
	});
});
