import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	messageBefore,
	pastSessions,
	projectSlug,
	sessionHistory,
	transcriptFolder,
} from "../../../src/agent/engine/cli-session-files";
import { makeTempDir } from "../../helpers/temp-dir";

// Records in the shapes CLI 2.1.330 writes (trimmed).
const records = (sessionId: string, prompt: string): string =>
	[
		{ type: "queue-operation", operation: "enqueue", sessionId, content: prompt },
		{
			type: "user",
			isSidechain: false,
			isMeta: true,
			message: { role: "user", content: "<local-command-caveat>" },
			uuid: "u0",
		},
		{
			type: "user",
			isSidechain: false,
			message: { role: "user", content: `${prompt}\nsecond line` },
			uuid: "u1",
			timestamp: "2026-11-27T11:15:41.880Z",
		},
		{ type: "attachment", attachment: { type: "date" }, uuid: "a1" },
		{
			type: "assistant",
			message: { id: "msg_1", role: "assistant", content: [{ type: "text", text: "Let me check." }] },
			uuid: "r1",
		},
		{
			type: "assistant",
			message: {
				id: "msg_1",
				role: "assistant",
				content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }],
			},
			uuid: "r2",
		},
		{
			type: "user",
			message: {
				role: "user",
				content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "User said no", is_error: true }],
			},
			uuid: "u2",
		},
		{
			type: "assistant",
			isSidechain: true,
			message: { id: "msg_s", content: [{ type: "text", text: "subagent" }] },
			uuid: "s1",
		},
		{
			type: "user",
			message: { role: "user", content: [{ type: "text", text: "[Request interrupted by user]" }] },
			uuid: "u3",
		},
		{
			type: "assistant",
			message: { id: "msg_2", role: "assistant", content: [{ type: "text", text: "Done." }] },
			uuid: "r3",
		},
	]
		.map((record) => JSON.stringify(record))
		.join("\n") + "\nnot json\n";

describe("projectSlug", () => {
	it("replaces every character but ASCII letters and digits with a dash, as the CLI names its project folders", () => {
		expect(projectSlug("/tmp/h3vault-nR35NQ")).toBe("-tmp-h3vault-nR35NQ");
		expect(projectSlug("C:\\Users\\Zoë\\My Vault")).toBe("C--Users-Zo--My-Vault");
	});
});

describe("transcripts", () => {
	const config = makeTempDir("claude-config");
	const vault = "/home/writer/My Vault";
	const folder = join(config.path, "projects", projectSlug(vault));
	mkdirSync(folder, { recursive: true });
	writeFileSync(join(folder, "11111111-aaaa.jsonl"), records("11111111-aaaa", "Plan the book"));
	writeFileSync(join(folder, "22222222-bbbb.jsonl"), records("22222222-bbbb", "Fix the index"));
	writeFileSync(join(folder, "33333333-cccc.jsonl"), '{"type":"queue-operation"}\n');
	writeFileSync(join(folder, "notes.txt"), "not a transcript");
	utimesSync(join(folder, "11111111-aaaa.jsonl"), new Date("2026-01-01T00:00:00Z"), new Date("2026-01-01T00:00:00Z"));
	utimesSync(join(folder, "22222222-bbbb.jsonl"), new Date("2026-02-01T00:00:00Z"), new Date("2026-02-01T00:00:00Z"));
	afterAll(() => config.remove());

	it("finds the vault's project folder, also by prefix when the path is too long for a whole slug", async () => {
		await expect(transcriptFolder(config.path, vault)).resolves.toBe(folder);
		await expect(transcriptFolder(config.path, "/elsewhere")).resolves.toBeUndefined();
		const deep = `/vaults/${"a".repeat(250)}`;
		const hashed = `${projectSlug(deep).slice(0, 200)}-1x2y3z`;
		mkdirSync(join(config.path, "projects", hashed));
		await expect(transcriptFolder(config.path, deep)).resolves.toBe(join(config.path, "projects", hashed));
		await expect(transcriptFolder(join(config.path, "missing"), vault)).resolves.toBeUndefined();
	});

	it("lists past sessions newest first with the first line the user typed", async () => {
		await expect(pastSessions(folder)).resolves.toEqual([
			{ sessionId: "22222222-bbbb", firstLine: "Fix the index", updatedAt: "2026-02-01T00:00:00.000Z" },
			{ sessionId: "11111111-aaaa", firstLine: "Plan the book", updatedAt: "2026-01-01T00:00:00.000Z" },
		]);
	});

	it("replays a session as the panel's events, without meta records, subagents or bookkeeping", async () => {
		await expect(sessionHistory(folder, "11111111-aaaa")).resolves.toEqual([
			{ kind: "user-message", message: { text: "Plan the book\nsecond line", attachments: [] }, id: "u1" },
			{ kind: "text-delta", blockId: "r1:0", text: "Let me check." },
			{ kind: "text-end", blockId: "r1:0" },
			{ kind: "tool-call", toolUseId: "toolu_1", toolName: "Bash", input: { command: "ls" } },
			{ kind: "tool-result", toolUseId: "toolu_1", isError: true, text: "User said no" },
			{ kind: "text-delta", blockId: "r3:0", text: "Done." },
			{ kind: "text-end", blockId: "r3:0" },
		]);
	});

	it("shows a message the panel sent with attachments as the text the user typed (the notes' documents and the mention breaks left out)", async () => {
		const sessionId = "33333333-cccc";
		const content = [
			{ type: "text", text: "Summarise \u2060@Notes/A.md" },
			{
				type: "document",
				title: "Notes/A.md",
				context: "A note",
				source: { type: "text", media_type: "text/plain", data: "alpha" },
			},
		];
		writeFileSync(
			join(folder, `${sessionId}.jsonl`),
			`${JSON.stringify({ type: "user", message: { role: "user", content }, uuid: "u1" })}\n`,
		);
		await expect(sessionHistory(folder, sessionId)).resolves.toEqual([
			{ kind: "user-message", message: { text: "Summarise @Notes/A.md", attachments: [] }, id: "u1" },
		]);
	});

	it("follows the conversation as it goes on now: a rewound branch left behind is not shown, and each message's place is known", async () => {
		// As CLI 2.1.330 writes a session rewound to after its first turn (`--resume-session-at r1`), then compacted.
		const sessionId = "44444444-dddd";
		const lines = [
			{ type: "user", message: { role: "user", content: "first" }, uuid: "u1", parentUuid: null },
			{ type: "attachment", attachment: { type: "date" }, uuid: "a1", parentUuid: "u1" },
			{
				type: "assistant",
				message: { id: "m1", content: [{ type: "text", text: "One." }] },
				uuid: "r1",
				parentUuid: "a1",
			},
			{ type: "user", message: { role: "user", content: "second" }, uuid: "u2", parentUuid: "r1" },
			{
				type: "assistant",
				message: { id: "m2", content: [{ type: "text", text: "Two." }] },
				uuid: "r2",
				parentUuid: "u2",
			},
			{ type: "last-prompt", lastPrompt: "second", leafUuid: "r2" },
			{ type: "user", message: { role: "user", content: "again" }, uuid: "u3", parentUuid: "r1" },
			{
				type: "assistant",
				message: { id: "m3", content: [{ type: "text", text: "Again." }] },
				uuid: "r3",
				parentUuid: "u3",
			},
			{ type: "system", subtype: "compact_boundary", uuid: "c1", parentUuid: null, logicalParentUuid: "r3" },
			{ type: "user", message: { role: "user", content: "later" }, uuid: "u4", parentUuid: "c1" },
			{
				type: "assistant",
				message: { id: "m4", content: [{ type: "text", text: "Later." }] },
				uuid: "r4",
				parentUuid: "u4",
			},
		];
		writeFileSync(join(folder, `${sessionId}.jsonl`), lines.map((line) => JSON.stringify(line)).join("\n"));
		const events = await sessionHistory(folder, sessionId);
		expect(
			events.flatMap((event) => (event.kind === "user-message" ? [[event.message.text, event.id]] : [])),
		).toEqual([
			["first", "u1"],
			["again", "u3"],
			["later", "u4"],
		]);
		expect(events.flatMap((event) => (event.kind === "text-delta" ? [event.text] : []))).toEqual([
			"One.",
			"Again.",
			"Later.",
		]);
		// A rewind not yet followed by a message: the conversation as it stood where the rewind took it.
		const usersUpTo = async (upTo: string): Promise<string[]> =>
			(await sessionHistory(folder, sessionId, upTo)).flatMap((event) =>
				event.kind === "user-message" ? [event.message.text] : [],
			);
		await expect(usersUpTo("r1")).resolves.toEqual(["first"]);
		await expect(usersUpTo("c1")).resolves.toEqual(["first", "again"]);
		await expect(usersUpTo("r2")).resolves.toEqual(["first", "second"]);
		await expect(usersUpTo("not-in-the-record")).resolves.toEqual(["first", "again", "later"]);
		await expect(messageBefore(folder, sessionId, "u1")).resolves.toBeUndefined();
		await expect(messageBefore(folder, sessionId, "u3")).resolves.toBe("r1");
		await expect(messageBefore(folder, sessionId, "u2")).resolves.toBe("r1");
		await expect(messageBefore(folder, sessionId, "u4")).resolves.toBe("c1");
		// Only a message the user typed is a place to go back to.
		await expect(messageBefore(folder, sessionId, "r1")).rejects.toThrow(/not in Claude Code's record/);
		await expect(messageBefore(folder, "../elsewhere", "u1")).rejects.toThrow(/not a session id/);
	});

	it("shows a message sent with images as its text and its images (the CLI's own note of where it keeps them left out)", async () => {
		const sessionId = "44444444-dddd";
		const image = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } };
		const lines = [
			{
				type: "user",
				message: { role: "user", content: [image, image, { type: "text", text: "What is this?" }] },
				uuid: "u1",
			},
			{
				type: "user",
				isMeta: true,
				message: {
					role: "user",
					content: [{ type: "text", text: "[Image: source: /tmp/claude-0/x/images/1.png]" }],
				},
				uuid: "u2",
			},
		];
		writeFileSync(join(folder, `${sessionId}.jsonl`), lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
		await expect(sessionHistory(folder, sessionId)).resolves.toEqual([
			{
				kind: "user-message",
				message: { text: "What is this?", attachments: [], images: [{ name: "Image 1" }, { name: "Image 2" }] },
				id: "u1",
			},
		]);
	});

	it("refuses a session id that could leave the folder", async () => {
		await expect(sessionHistory(folder, "../../etc/passwd")).rejects.toThrow("not a session id: ../../etc/passwd");
	});
});
