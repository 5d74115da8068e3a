import { resolveObjectURL } from "node:buffer";
import { RegexScanner } from "../../../src/vault-tools/regex/regex-scanner";
import { canStartWebWorkers, webRegexThread } from "../../../src/vault-tools/regex/web-regex-thread";
import { NodeBackedWebWorker } from "../../helpers/node-backed-web-worker";
import { CATASTROPHIC_QUERY, PROSE_LINE, SETTLES_WITHIN_MS } from "../catastrophic-regex";

describe("webRegexThread: regex search in a Web Worker from a Blob URL (what Obsidian's renderer runs)", () => {
	let scanner: RegexScanner | undefined;
	let uninstall = (): void => undefined;
	beforeAll(() => (uninstall = NodeBackedWebWorker.install()));
	afterEach(() => scanner?.dispose());
	afterAll(() => uninstall?.());

	it("is chosen only where the runtime has Web Workers", () => {
		expect(canStartWebWorkers()).toBe(true);
		uninstall();
		expect(canStartWebWorkers()).toBe(false);
		uninstall = NodeBackedWebWorker.install();
	});

	it("finds matches, then ends the worker and revokes its Blob URL on dispose", async () => {
		scanner = new RegexScanner({ thread: webRegexThread });
		const found = new Map<number, readonly number[]>();
		const outcome = await scanner.scan({
			pattern: /^## (\w+)/gm,
			count: 2,
			text: (index) => ["# A\n## Tasks\n", "none"][index],
			budgetMs: 20_000,
			found: (index, starts) => found.set(index, starts),
		});
		expect(outcome).toEqual({ kind: "done" });
		expect(found).toEqual(new Map([[0, [4]]]));
		const url = NodeBackedWebWorker.started.at(-1)?.url ?? "";
		expect(resolveObjectURL(url)).toBeDefined();
		scanner.dispose();
		expect(resolveObjectURL(url)).toBeUndefined();
	});

	it(
		"stops a catastrophic pattern at its budget with terminate()",
		async () => {
			scanner = new RegexScanner({ thread: webRegexThread });
			const outcome = await scanner.scan({
				pattern: new RegExp(CATASTROPHIC_QUERY, "gm"),
				count: 1,
				text: () => PROSE_LINE,
				budgetMs: 300,
				found: () => undefined,
			});
			expect(outcome).toEqual({ kind: "stopped", why: "budget", searched: 0 });
		},
		SETTLES_WITHIN_MS,
	);
});
