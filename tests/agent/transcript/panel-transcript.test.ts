import { Transcript, entryText, toolSummary, usageLine } from "../../../src/agent/transcript/panel-transcript";

describe("Transcript", () => {
	it("grows one entry per reply block as text streams in, and closes it when the turn ends", () => {
		const transcript = new Transcript();
		transcript.apply({ kind: "user-message", message: { text: "Summarise my week", attachments: [] } });
		const first = transcript.apply({ kind: "text-delta", blockId: "a", text: "You met " });
		const second = transcript.apply({ kind: "text-delta", blockId: "a", text: "Ana twice." });
		expect(first.added).toHaveLength(1);
		expect(second).toEqual({ added: [], changed: [first.added[0]] });
		expect(transcript.entries[1]).toMatchObject({ kind: "assistant", text: "You met Ana twice.", streaming: true });
		const end = transcript.apply({
			kind: "turn-end",
			outcome: "done",
			usage: { inputTokens: 10, outputTokens: 5 },
		});
		expect(end.changed).toEqual([transcript.entries[1]]);
		expect(transcript.entries[1]).toMatchObject({ streaming: false });
		expect(transcript.entries[2]).toMatchObject({ kind: "usage", outcome: "done" });
		// A new turn's block with the same id starts a new entry.
		transcript.apply({ kind: "text-delta", blockId: "a", text: "Next" });
		expect(transcript.entries.filter((entry) => entry.kind === "assistant")).toHaveLength(2);
	});

	it("keeps the streaming mark only on the reply still being written (a block ends when it closes, or when anything follows it)", () => {
		const transcript = new Transcript();
		transcript.apply({ kind: "text-delta", blockId: "m1:0", text: "First I look." });
		const closed = transcript.apply({ kind: "text-end", blockId: "m1:0" });
		expect(closed.changed).toEqual([transcript.entries[0]]);
		transcript.apply({ kind: "text-delta", blockId: "m2:0", text: "Then I read." });
		const tool = transcript.apply({ kind: "tool-call", toolUseId: "t1", toolName: "Read", input: {} });
		expect(tool.changed).toEqual([transcript.entries[1]]);
		transcript.apply({ kind: "text-delta", blockId: "m3:0", text: "A third " });
		const next = transcript.apply({ kind: "text-delta", blockId: "m3:1", text: "and a fourth." });
		expect(next.changed).toEqual([transcript.entries[3]]);
		const streaming = transcript.entries.filter((entry) => entry.kind === "assistant" && entry.streaming);
		expect(streaming).toEqual([transcript.entries[4]]);
		expect(transcript.apply({ kind: "text-end", blockId: "unknown" })).toEqual({ added: [], changed: [] });
	});

	it("marks an edit's card while its review waits, then with the user's decision in words (news before the card is kept)", () => {
		const transcript = new Transcript();
		transcript.apply({ kind: "review-waiting", toolUseId: "e1" });
		transcript.apply({ kind: "tool-call", toolUseId: "e1", toolName: "Edit", input: {} });
		expect(transcript.entries[0]).toMatchObject({ kind: "tool", review: { state: "waiting" } });
		const decided = transcript.apply({
			kind: "review-decided",
			toolUseId: "e1",
			decision: { kind: "accepted", edited: true },
		});
		expect(decided.changed).toEqual([transcript.entries[0]]);
		expect(transcript.entries[0]).toMatchObject({
			review: { state: "decided", words: "Accepted with your edits" },
		});
		transcript.apply({ kind: "tool-call", toolUseId: "e2", toolName: "Write", input: {} });
		transcript.apply({
			kind: "review-decided",
			toolUseId: "e2",
			decision: { kind: "rejected", reason: "keep my title" },
		});
		expect(transcript.entries[1]).toMatchObject({ review: { words: "Rejected: keep my title" } });
	});

	it("shows a message sent while Claude works as queued, and as sent once the CLI takes it (no second row)", () => {
		const transcript = new Transcript();
		transcript.queue({ text: "and then?", attachments: [] });
		expect(transcript.entries[0]).toMatchObject({ kind: "user", state: "queued" });
		const taken = transcript.apply({ kind: "user-message", message: { text: "and then?", attachments: [] } });
		expect(taken.added).toEqual([]);
		expect(transcript.entries).toHaveLength(1);
		expect(transcript.entries[0]).toMatchObject({ state: "sent" });
	});

	it("keeps each message's id in the CLI's record, given when the CLI takes it (a queued one gets its id then)", () => {
		const transcript = new Transcript();
		transcript.apply({ kind: "user-message", message: { text: "first", attachments: [] }, id: "m1" });
		transcript.queue({ text: "second", attachments: [] });
		expect(transcript.entries[1]).not.toHaveProperty("messageId");
		transcript.apply({ kind: "user-message", message: { text: "second", attachments: [] }, id: "m2" });
		expect(transcript.entries.map((entry) => (entry.kind === "user" ? entry.messageId : undefined))).toEqual([
			"m1",
			"m2",
		]);
	});

	it("names the turns from a message on, the rows before it, and the rows through its turn", () => {
		const transcript = new Transcript();
		const turn = (id: string, reply: string): void => {
			transcript.apply({ kind: "user-message", message: { text: id, attachments: [] }, id });
			transcript.apply({ kind: "text-delta", blockId: id, text: reply });
			transcript.apply({ kind: "turn-end", outcome: "done", usage: {} });
		};
		turn("m1", "One.");
		turn("m2", "Two.");
		turn("m3", "Three.");
		const second = transcript.entries.find((entry) => entry.kind === "user" && entry.messageId === "m2");
		if (!second) throw new Error("no second message");
		expect(transcript.turnsFrom(second.id)).toEqual(["m2", "m3"]);
		expect(transcript.before(second.id).map(entryText)).toEqual(["m1", "One.", "Turn done"]);
		const through = transcript.throughTurnOf(second.id);
		expect(through.entries.map(entryText)).toEqual(["m1", "One.", "Turn done", "m2", "Two.", "Turn done"]);
		expect(through.next).toMatchObject({ messageId: "m3" });
		expect(transcript.throughTurnOf(transcript.entries.length - 2).next).toBeUndefined();
	});

	it("begins with another transcript's rows as copies, numbered on from there", () => {
		const earlier = new Transcript();
		earlier.apply({ kind: "user-message", message: { text: "first", attachments: [] }, id: "m1" });
		earlier.apply({ kind: "text-delta", blockId: "b", text: "One." });
		earlier.settle();
		const next = new Transcript();
		next.adopt(earlier.entries);
		next.apply({ kind: "user-message", message: { text: "second", attachments: [] }, id: "m2" });
		expect(next.entries.map((entry) => [entry.id, entryText(entry)])).toEqual([
			[1, "first"],
			[2, "One."],
			[3, "second"],
		]);
		expect(next.entries[0]).not.toBe(earlier.entries[0]);
		expect(next.entries[0]).toMatchObject({ messageId: "m1" });
	});

	it("shows the images a message carries by name, and what did not go with it once it is sent", () => {
		const transcript = new Transcript();
		const offered = [
			{ name: "shot.png", bytes: new Uint8Array([1]) },
			{ name: "face.jpg", path: "Private/face.jpg" },
		];
		transcript.queue({ text: "Look", attachments: [], images: offered });
		expect(transcript.entries[0]).toMatchObject({ images: ["shot.png", "face.jpg"] });
		transcript.apply({
			kind: "user-message",
			message: {
				text: "Look",
				attachments: [],
				images: [{ name: "shot.png" }],
				notSent: ["“face.jpg” is in a private place."],
			},
		});
		expect(transcript.entries).toHaveLength(1);
		expect(transcript.entries[0]).toMatchObject({
			state: "sent",
			images: ["shot.png"],
			notSent: ["“face.jpg” is in a private place."],
		});
		// Nothing kept of the bytes.
		expect(JSON.stringify(transcript.entries)).not.toContain("bytes");
		expect(transcript.apply({ kind: "permission-mode", mode: "default" })).toEqual({ added: [], changed: [] });
	});

	it("puts a tool's result on its card and settles permission questions", () => {
		const transcript = new Transcript();
		transcript.apply({ kind: "tool-call", toolUseId: "t1", toolName: "Bash", input: { command: "ls" } });
		transcript.apply({ kind: "tool-result", toolUseId: "t1", isError: true, text: "denied" });
		expect(transcript.entries[0]).toMatchObject({ kind: "tool", status: "error", result: "denied" });
		transcript.apply({ kind: "tool-result", toolUseId: "nope", isError: false, text: "" });
		expect(transcript.entries[1]).toMatchObject({ kind: "notice", level: "error" });
		transcript.apply({
			kind: "permission-request",
			request: { id: "p1", toolName: "WebFetch", input: {}, summary: "WebFetch: example.org" },
		});
		transcript.apply({ kind: "permission-settled", id: "p1", outcome: "denied" });
		expect(transcript.entries[2]).toMatchObject({ kind: "permission", status: "denied" });
		expect(entryText(transcript.entries[2] ?? transcript.entries[0])).toContain("example.org");
	});

	it("marks the tool call a permission question is about as waiting for the answer until it is settled, whichever comes first", () => {
		const transcript = new Transcript();
		transcript.apply({ kind: "tool-call", toolUseId: "t1", toolName: "Bash", input: { command: "ls" } });
		const asked = transcript.apply({
			kind: "permission-request",
			request: { id: "p1", toolUseId: "t1", toolName: "Bash", input: { command: "ls" }, summary: "Bash: ls" },
		});
		const tool = transcript.entries[0];
		expect(tool).toMatchObject({ kind: "tool", asking: true });
		expect(asked.changed).toContain(tool);
		const settled = transcript.apply({ kind: "permission-settled", id: "p1", outcome: "allowed" });
		expect(tool).not.toHaveProperty("asking");
		expect(settled.changed).toContain(tool);
		// The question may come before the CLI prints the call it is about.
		transcript.apply({
			kind: "permission-request",
			request: { id: "p2", toolUseId: "t2", toolName: "Bash", input: { command: "pwd" }, summary: "Bash: pwd" },
		});
		transcript.apply({ kind: "tool-call", toolUseId: "t2", toolName: "Bash", input: { command: "pwd" } });
		expect(transcript.entries.at(-1)).toMatchObject({ kind: "tool", toolUseId: "t2", asking: true });
		// A question about no known call marks nothing.
		transcript.apply({
			kind: "permission-request",
			request: { id: "p3", toolName: "WebFetch", input: {}, summary: "WebFetch: example.org" },
		});
		expect(transcript.entries.filter((entry) => entry.kind === "tool" && entry.asking === true)).toHaveLength(1);
	});

	it("numbers entries in order and reports failures and the end of the session as notices", () => {
		const transcript = new Transcript();
		transcript.apply({ kind: "failed", message: "Claude Code was not found." });
		transcript.apply({ kind: "closed" });
		expect(transcript.entries.map((entry) => [entry.id, entry.kind, entryText(entry)])).toEqual([
			[1, "notice", "Claude Code was not found."],
			[2, "notice", "The session ended."],
		]);
	});
});

describe("usage and tool lines", () => {
	it("says tokens, cache, cost and time when reported, and only what was reported", () => {
		expect(
			usageLine({
				inputTokens: 1200,
				outputTokens: 80,
				cacheReadTokens: 3000,
				costUsd: 0.0123,
				durationMs: 2500,
			}),
		).toBe("Turn done: 1,200 tokens in, 80 out · 3,000 from cache · $0.0123 · 2.5 s");
		expect(usageLine({}, "interrupted")).toBe("Stopped");
		expect(usageLine({ outputTokens: 3 }, "error")).toBe("Turn failed: 0 tokens in, 3 out");
	});

	it("sums up a tool's input by the argument that names its target", () => {
		expect(toolSummary({ file_path: "Notes/A.md", content: "x" })).toBe("Notes/A.md");
		expect(toolSummary({ other: 1 })).toBe('{"other":1}');
		expect(toolSummary({ command: "x".repeat(200) })).toHaveLength(120);
	});
});

describe("a past session's history", () => {
	it("leaves no block streaming once settled", () => {
		const transcript = new Transcript();
		transcript.apply({ kind: "text-delta", blockId: "a", text: "Old reply" });
		const settled = transcript.settle();
		expect(settled.changed).toEqual([transcript.entries[0]]);
		expect(transcript.entries[0]).toMatchObject({ streaming: false });
		expect(transcript.settle().changed).toEqual([]);
	});
});
