import { languageIdFor } from "../../../src/ide/workspace/language-id";

describe("languageIdFor", () => {
	it("answers VS Code's language id by extension, in any case", () => {
		expect(languageIdFor("a.md")).toBe("markdown");
		expect(languageIdFor("A.MARKDOWN")).toBe("markdown");
		expect(languageIdFor("board.canvas")).toBe("json");
		expect(languageIdFor("data.json")).toBe("json");
		expect(languageIdFor("snippets/theme.css")).toBe("css");
		expect(languageIdFor("script.js")).toBe("javascript");
	});

	it("answers plaintext for other files, files without an extension and dotted folders", () => {
		expect(languageIdFor("notes.txt")).toBe("plaintext");
		expect(languageIdFor("README")).toBe("plaintext");
		expect(languageIdFor("folder.md/README")).toBe("plaintext");
	});
});
