import { OUTSIDE_THE_VAULT, pathFormProblem } from "../../src/journal/record-paths";

describe("pathFormProblem", () => {
	it("accepts vault paths as the journal writes them", () => {
		for (const path of ["Note.md", "Projects/Plan.md", "a b/Café #1.md", "...md", "x..y/z.md"])
			expect(pathFormProblem(path)).toBeUndefined();
	});

	it("refuses anything else a planted record could name: parent parts, absolute paths, empty or dot parts, NUL, backslashes", () => {
		for (const path of [
			"",
			"../outside/victim.md",
			"a/../../b.md",
			"/etc/passwd",
			"C:/Users/x.md",
			"c:x.md",
			"a//b.md",
			"./a.md",
			"a/./b.md",
			"a\\..\\b.md",
			"a\0.md",
			"a/",
			"x".repeat(1025),
		]) {
			expect(pathFormProblem(path)).toBe(OUTSIDE_THE_VAULT);
		}
	});
});
