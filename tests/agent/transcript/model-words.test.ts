import { modelWords } from "../../../src/agent/transcript/model-words";

describe("modelWords", () => {
	it("names Claude's models as people say them, whatever the shape of the id Claude Code reports", () => {
		expect(modelWords("claude-sonnet-4-5")).toBe("Sonnet 4.5");
		expect(modelWords("claude-opus-4-1-20250805")).toBe("Opus 4.1");
		expect(modelWords("claude-opus-4-20250514")).toBe("Opus 4");
		expect(modelWords("claude-haiku-4-5-20251001")).toBe("Haiku 4.5");
		expect(modelWords("claude-sonnet-4-5[1m]")).toBe("Sonnet 4.5 (1M context)");
		expect(modelWords("claude-3-5-haiku-20241022")).toBe("Haiku 3.5");
		expect(modelWords("claude-3-7-sonnet-latest")).toBe("Sonnet 3.7");
	});

	it("shows an id of any other shape as it came", () => {
		expect(modelWords("my-proxy/model")).toBe("my-proxy/model");
		expect(modelWords("claude-sonnet")).toBe("claude-sonnet");
		expect(modelWords("")).toBe("");
	});
});
