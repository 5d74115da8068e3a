import { Notifier } from "../../src/ide/notifier";
import { selectionSnapshot, type SelectionSnapshot } from "../../src/ide/workspace/selection";
import { privacyByPath } from "../helpers/path-privacy";

describe("Notifier.selectionEnded (a whole selection gesture in one event)", () => {
	beforeEach(() => jest.useFakeTimers());
	afterEach(() => jest.useRealTimers());

	function setUp(privatePath?: string): { notifier: Notifier; sent: SelectionSnapshot[] } {
		const sent: SelectionSnapshot[] = [];
		const notifier = new Notifier({
			broadcast: (_method, params) => sent.push(params as SelectionSnapshot),
			notifyClient: () => undefined,
			hasClients: () => true,
			currentSelection: () => undefined,
			privacy: privacyByPath((path) => path === privatePath),
			debounceMs: 100,
			welcomeDelayMs: 0,
			maxQueuedMentions: 1,
			queuedMentionTtlMs: 1000,
			queuedMentionSpacingMs: 1,
		});
		return { notifier, sent };
	}
	const snapshot = (text: string, to: number) =>
		selectionSnapshot("/v/a.md", text, { line: 0, character: 0 }, { line: 0, character: to });

	it("sends at once, drops a pending selection and its debounce, and deduplicates like any selection", () => {
		const { notifier, sent } = setUp();
		notifier.selectionChanged(snapshot("pen", 3));
		notifier.selectionEnded(snapshot("pending", 7));
		expect(sent.map((s) => s.text)).toEqual(["pending"]);
		notifier.selectionEnded(snapshot("pending", 7));
		jest.advanceTimersByTime(1000);
		expect(sent.map((s) => s.text)).toEqual(["pending"]);
		expect(notifier.latestSelection?.text).toBe("pending");
	});

	it("sends nothing for a private note", () => {
		const { notifier, sent } = setUp("/v/a.md");
		notifier.selectionEnded(snapshot("secret", 6));
		expect(sent).toEqual([]);
	});
});
