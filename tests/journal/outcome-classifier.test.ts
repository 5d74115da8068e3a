import { outcomeClassifier } from "../../src/journal/outcome-classifier";

const classify = outcomeClassifier((text) => text === "DIFF_REJECTED");
const result = (text: string, isError?: boolean): { kind: "result"; result: unknown; bytes: number } => ({
	kind: "result",
	result: { content: [{ type: "text", text }], ...(isError ? { isError } : {}) },
	bytes: 1,
});

describe("outcomeClassifier", () => {
	it("tells ok, error, refused and rejected apart", () => {
		expect(classify("read_note", result("# A"))).toEqual({ outcome: "ok" });
		expect(classify("read_note", result("read_note: Note not found: x.md", true))).toEqual({
			outcome: "error",
			message: "read_note: Note not found: x.md",
		});
		expect(classify("create_note", result("create_note: Refused: x.md already exists", true))).toMatchObject({
			outcome: "refused",
		});
		expect(classify("openDiff", result("DIFF_REJECTED"))).toMatchObject({ outcome: "rejected" });
		expect(
			classify("files/read", { kind: "error", code: -32602, message: "Refused: not in the vault", bytes: 1 }),
		).toMatchObject({ outcome: "refused" });
		expect(
			classify("files/read", { kind: "error", code: -32603, message: "Internal error", bytes: 1 }),
		).toMatchObject({ outcome: "error" });
		expect(classify("files/read", { kind: "result", result: { contents: [] }, bytes: 1 })).toEqual({
			outcome: "ok",
		});
	});
});
