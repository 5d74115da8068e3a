import { Transcript } from "../../../src/agent/transcript/panel-transcript";
import { transcriptAsMarkdown } from "../../../src/agent/transcript/transcript-export";

describe("transcriptAsMarkdown", () => {
	it("writes each message in order, the user's quoted, tools and permissions as lines, and leaves queued messages out", () => {
		const transcript = new Transcript();
		transcript.apply({
			kind: "user-message",
			message: { text: "Line one\n\n# not a heading", attachments: [{ path: "Notes/A.md" }] },
		});
		transcript.apply({ kind: "text-delta", blockId: "b", text: "Here is ```code``` and\n\n```\nfenced\n```" });
		transcript.apply({ kind: "tool-call", toolUseId: "t", toolName: "Read", input: { file_path: "Notes/A.md" } });
		transcript.apply({ kind: "tool-result", toolUseId: "t", isError: false, text: "has ``` inside" });
		transcript.apply({
			kind: "permission-request",
			request: { id: "p", toolName: "Bash", input: {}, summary: "Bash: ls" },
		});
		transcript.apply({ kind: "permission-settled", id: "p", outcome: "allowed" });
		transcript.apply({ kind: "turn-end", outcome: "done", usage: { inputTokens: 5, outputTokens: 2 } });
		transcript.queue({ text: "never sent", attachments: [] });
		const markdown = transcriptAsMarkdown(transcript.entries, {
			sessionId: "s-1",
			title: "Line one",
			exportedAt: new Date("2026-11-27T10:00:00Z"),
		});
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
				"````text",
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

describe("transcriptAsMarkdown makes what Claude and its tools wrote inert (issue 26, finding 8)", () => {
	const exported = (apply: (transcript: Transcript) => void): string => {
		const transcript = new Transcript();
		apply(transcript);
		return transcriptAsMarkdown(transcript.entries, { title: "t", exportedAt: new Date("2026-11-27T10:00:00Z") });
	};

	it("shows a dataviewjs block in a reply as plain code, naming its language in the info string only", () => {
		const markdown = exported((transcript) =>
			transcript.apply({
				kind: "text-delta",
				blockId: "b",
				text: "Run this:\n\n```dataviewjs\ndv.paragraph(app.vault.getFiles())\n```\n\n~~~button\nname Go\n~~~",
			}),
		);
		expect(markdown).toContain("```text dataviewjs\ndv.paragraph(app.vault.getFiles())\n```");
		expect(markdown).toContain("~~~text button\nname Go\n~~~");
		expect(markdown).not.toMatch(/^\s*(```|~~~)\s*(dataviewjs|button)/m);
	});

	it("turns remote images into links and escapes raw HTML, embeds, wikilinks and comments in a reply", () => {
		const markdown = exported((transcript) =>
			transcript.apply({
				kind: "text-delta",
				blockId: "b",
				text: '![x](https://evil.example/p.png) <img src="https://evil.example/q.png"> ![[Secret/Plan]] [[Secret/Plan]] %%hidden%%',
			}),
		);
		expect(markdown).toContain(
			'&#33;[x](https://evil.example/p.png) &lt;img src="https://evil.example/q.png"> !&#91;[Secret/Plan]] &#91;[Secret/Plan]] %&#37;hidden%&#37;',
		);
	});

	it("keeps a tool input with a line break and a fence on its own list line", () => {
		const markdown = exported((transcript) => {
			transcript.apply({
				kind: "tool-call",
				toolUseId: "t",
				toolName: "Bash",
				input: { command: "echo hi\n```dataviewjs\ndv.span(1)\n```\n<img src=https://evil.example/x.png>" },
			});
		});
		const line = markdown.split("\n").find((each) => each.startsWith("- Tool"));
		expect(line).toBe(
			"- Tool `Bash` (running): echo hi ```dataviewjs dv.span(1) ``` &lt;img src=https://evil.example/x.png>",
		);
		expect(markdown).not.toMatch(/^```dataviewjs/m);
	});

	it("links an attached note only when its name cannot make the link something else", () => {
		const markdown = exported((transcript) =>
			transcript.apply({
				kind: "user-message",
				message: { text: "x", attachments: [{ path: "Notes/A.md" }, { path: "Notes/x]] ![[Secret/Plan.md" }] },
			}),
		);
		expect(markdown).toContain("Attached: [[Notes/A.md]], `Notes/x]] ![[Secret/Plan.md`");
	});
});
