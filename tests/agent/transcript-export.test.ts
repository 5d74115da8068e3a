import { Transcript } from "../../src/agent/transcript";
import { transcriptAsMarkdown } from "../../src/agent/transcript-export";

describe("transcriptAsMarkdown", () => {
	it("writes each message in order, the user's quoted, tools and permissions as lines, and leaves queued messages out", () => {
		const transcript = new Transcript();
		transcript.apply({ kind: "user-message", message: { text: "Line one\n\n# not a heading", attachments: [{ path: "Notes/A.md" }] } });
		transcript.apply({ kind: "text-delta", blockId: "b", text: "Here is ```code``` and\n\n```\nfenced\n```" });
		transcript.apply({ kind: "tool-call", toolUseId: "t", toolName: "Read", input: { file_path: "Notes/A.md" } });
		transcript.apply({ kind: "tool-result", toolUseId: "t", isError: false, text: "has ``` inside" });
		transcript.apply({ kind: "permission-request", request: { id: "p", toolName: "Bash", input: {}, summary: "Bash: ls" } });
		transcript.apply({ kind: "permission-settled", id: "p", outcome: "allowed" });
		transcript.apply({ kind: "turn-end", outcome: "done", usage: { inputTokens: 5, outputTokens: 2 } });
		transcript.queue({ text: "never sent", attachments: [] });
		const markdown = transcriptAsMarkdown(transcript.entries, { sessionId: "s-1", title: "Line one", exportedAt: new Date("2026-11-27T10:00:00Z") });
		expect(markdown).toBe(
			[
				"---",
				'claude-session: "s-1"',
				"exported: 2026-11-27T10:00:00.000Z",
				"---",
				"",
				"# Line one",
				"",
				"**You**",
				"",
				"> Line one",
				">",
				"> # not a heading",
				"",
				"Attached: [[Notes/A.md]]",
				"",
				"**Claude**",
				"",
				"Here is ```code``` and\n\n```\nfenced\n```",
				"",
				"- Tool `Read` (done): Notes/A.md",
				"",
				"````",
				"has ``` inside",
				"````",
				"",
				"- Permission for `Bash`: Bash: ls (allowed)",
				"",
				"*Turn done: 5 tokens in, 2 out*",
				"",
			].join("\n"),
		);
	});
});
