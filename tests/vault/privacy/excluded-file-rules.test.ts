import { excludedFiles } from "../../../src/vault/privacy/excluded-file-rules";

describe("excludedFiles: Obsidian's excluded files as the plugin and every other process apply them", () => {
	it("turns folder and file entries into paths and keeps /patterns/ apart", () => {
		expect(
			excludedFiles([
				"Archive/",
				" Old notes/ ",
				"/Leading",
				"Inbox/draft.md",
				"/\\.png$/",
				"/^tmp/i",
				"",
				"  ",
				3,
				null,
			]),
		).toEqual({
			paths: ["Archive", "Old notes", "Leading", "Inbox/draft.md"],
			patterns: ["/\\.png$/", "/^tmp/i"],
		});
	});

	it("reads anything that is not a list as no entries", () => {
		for (const value of [undefined, null, "Archive/", { Archive: true }])
			expect(excludedFiles(value)).toEqual({ paths: [], patterns: [] });
	});
});
