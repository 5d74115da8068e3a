import { FakeElement, notices } from "../../__mocks__/obsidian";
import { fail, ok, warn, withCommand } from "../../../src/ide/doctor/doctor-line";
import { checkSummary, showCheckResults } from "../../../src/obsidian/settings/check-results";

function show(lines: Parameters<typeof showCheckResults>[1]): FakeElement {
	const container = new FakeElement();
	showCheckResults(container as unknown as HTMLElement, lines);
	return container;
}

describe("Check connection's results", () => {
	it("say All good with the count when every check passed, and fold the checks", () => {
		const container = show([ok("A"), ok("B"), ok("C")]);
		expect(container.children[0]?.text).toBe("All good: 3 checks passed.");
		expect(container.children.filter((child) => child.hasClass("claude-code-bridge-doctor-line"))).toEqual([]);
		const fold = container.findAll("claude-code-bridge-doctor-passed")[0];
		expect(fold?.children[0]?.text).toBe("3 checks passed");
		expect(fold?.findAll("claude-code-bridge-doctor-line").map((row) => row.children[1]?.text)).toEqual([
			"A",
			"B",
			"C",
		]);
	});

	it("count problems and warnings, and show problems first, then warnings, before the passed checks", () => {
		const lines = [
			ok("fine"),
			warn("odd", "look"),
			fail("broken", "mend"),
			warn("odder"),
			fail("worse", "mend more"),
		];
		expect(checkSummary(lines)).toBe("2 problems, 2 warnings.");
		expect(checkSummary([ok("a"), warn("b")])).toBe("1 warning.");
		const container = show(lines);
		expect(container.children[0]?.text).toBe("2 problems, 2 warnings.");
		const top = container.children.filter((child) => child.hasClass("claude-code-bridge-doctor-line"));
		expect(
			top.map((row) => [
				row.children[0]?.text,
				row.children[1]?.text,
				row.findAll("claude-code-bridge-doctor-fix")[0]?.text,
			]),
		).toEqual([
			["Problem", "broken", "mend"],
			["Problem", "worse", "mend more"],
			["Warning", "odd", "look"],
			["Warning", "odder", undefined],
		]);
		expect(container.findAll("claude-code-bridge-doctor-passed")[0]?.children[0]?.text).toBe("1 check passed");
	});

	it("put a copy button on a command a finding names", async () => {
		const copied: string[] = [];
		Object.defineProperty(globalThis, "navigator", {
			configurable: true,
			value: { clipboard: { writeText: (text: string) => (copied.push(text), Promise.resolve()) } },
		});
		notices.splice(0);
		const container = show([
			withCommand(warn("Stale lock file 1.lock", 'you may delete it now: rm "/h/1.lock"'), 'rm "/h/1.lock"'),
		]);
		const block = container.findAll("ccb-command")[0];
		expect(block?.children[0]?.text).toBe('rm "/h/1.lock"');
		block?.findAll("ccb-command-copy")[0]?.dispatch("click");
		await new Promise((done) => setImmediate(done));
		expect(copied).toEqual(['rm "/h/1.lock"']);
		expect(notices).toEqual(["Command copied."]);
	});
});
