import { APPLY_WITHOUT_REVIEW } from "../../../src/vault-tools/kit/ports";

describe("APPLY_WITHOUT_REVIEW", () => {
	it("accepts every proposed write exactly as proposed", async () => {
		const signal = new AbortController().signal;
		expect(
			await APPLY_WITHOUT_REVIEW.propose({
				path: "a.md",
				oldText: "old",
				newText: "new text\n",
				isNewNote: false,
				tool: "edit_note",
				signal,
			}),
		).toEqual({ kind: "accepted", finalText: "new text\n" });
		expect(
			await APPLY_WITHOUT_REVIEW.propose({
				path: "b.md",
				oldText: "",
				newText: "",
				isNewNote: true,
				tool: "create_note",
				signal,
			}),
		).toEqual({ kind: "accepted", finalText: "" });
	});
});
