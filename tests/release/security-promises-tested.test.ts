import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "../..");

interface CitedTest {
	file: string;
	name: string;
	line: number;
}

/**
 * SECURITY.md cites its proof as `tests/file.test.ts › test name` (or the file's name alone inside tests/, and
 * `› other name` for more tests of the same file; a citation may wrap onto the next line). Each citation's file must
 * exist and hold that test's name, so no promise points at a test that is gone or renamed.
 */
function citedTests(): CitedTest[] {
	const lines = readFileSync(join(ROOT, "SECURITY.md"), "utf8").split("\n");
	const cited: CitedTest[] = [];
	let file: string | undefined;
	lines.forEach((line, index) => {
		// A backtick left open at the end of a line continues on the next one.
		const joined = (line.split("`").length - 1) % 2 === 1 ? `${line} ${(lines[index + 1] ?? "").trim()}` : line;
		// Every code span in order: a test file alone sets the file for the names after it.
		for (const match of joined.matchAll(/`([\w./-]+\.test\.ts)?\s*(?:› ([^`]+))?`/g)) {
			if (match.index >= line.length) break;
			if (match[1] !== undefined) file = locate(match[1]);
			if (match[2] === undefined) continue;
			if (file === undefined) throw new Error(`SECURITY.md:${index + 1} cites a test without a file`);
			cited.push({ file, name: match[2].trim(), line: index + 1 });
		}
	});
	return cited;
}

/** `tests/x/y.test.ts` as written, or a bare `y.test.ts`, which SECURITY.md uses for the files of tests/security. */
function locate(cited: string): string {
	return cited.startsWith("tests/") ? cited : `tests/security/${cited}`;
}

/** The parts of a name that must appear as written: nested describe › it names, without parameters (`%s`, `$kind`, numbers a template may fill in). */
function literalParts(name: string): string[] {
	return name
		.split(" › ")
		.map((part) =>
			part
				.split(/%[sdpji#]|\$\w+|\b\d+\b/)
				.reduce((longest, piece) => (piece.trim().length > longest.length ? piece.trim() : longest), ""),
		)
		.filter((part) => part !== "");
}

describe("SECURITY.md's promises", () => {
	const cited = citedTests();

	it("cite tests", () => {
		expect(cited.length).toBeGreaterThan(30);
	});

	it("cite only test files that exist", () => {
		expect(
			cited
				.filter((test) => !existsSync(join(ROOT, test.file)))
				.map((test) => `SECURITY.md:${test.line} ${test.file}`),
		).toEqual([]);
	});

	it("cite only tests that exist in those files", () => {
		const missing = cited
			.filter((test) => existsSync(join(ROOT, test.file)))
			.filter((test) => {
				const source = readFileSync(join(ROOT, test.file), "utf8");
				return !literalParts(test.name).every((part) => source.includes(part));
			})
			.map((test) => `SECURITY.md:${test.line} ${test.file} › ${test.name}`);
		expect(missing).toEqual([]);
	});
});
