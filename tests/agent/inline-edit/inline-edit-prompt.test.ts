import type { PromptBlock } from "../../../src/agent/agent-session";
import { launchCommand } from "../../../src/agent/claude-cli/launch-command";
import { MAX_ATTACHED_CHARS } from "../../../src/agent/engine/mention-text";
import {
	firstPrompt,
	followUpPrompt,
	INLINE_EDIT_SYSTEM_PROMPT,
	REPLACEMENT_CLOSE,
	REPLACEMENT_OPEN,
} from "../../../src/agent/inline-edit/inline-edit-prompt";

const NOTE = "# Trip\n\n## Day one\nWe walked to the lake. Ask @Anna about it.\nIt rained.\n\n## Day two\nHome.\n";
const passageOf = (needle: string) => ({ from: NOTE.indexOf(needle), to: NOTE.indexOf(needle) + needle.length });

function blocks(content: ReturnType<typeof firstPrompt>): PromptBlock[] {
	if (typeof content === "string") throw new Error("expected blocks");
	return [...content];
}
const documents = (content: ReturnType<typeof firstPrompt>) =>
	blocks(content).flatMap((block) => (block.type === "document" ? [block] : []));

describe("the inline edit's prompt", () => {
	it("asks for the new passage alone between the tags the reply reader looks for, in a system prompt cmd.exe can carry", () => {
		expect(INLINE_EDIT_SYSTEM_PROMPT).toContain(REPLACEMENT_OPEN);
		expect(INLINE_EDIT_SYSTEM_PROMPT).toContain(REPLACEMENT_CLOSE);
		const shim = { kind: "cmd-shim", comSpec: "C:\\Windows\\cmd.exe", shim: "C:\\npm\\claude.cmd" } as const;
		expect(launchCommand(shim, ["--system-prompt", INLINE_EDIT_SYSTEM_PROMPT])).not.toHaveProperty("refused");
	});

	it("sends the note, the section and the passage as documents, and says where the passage is and what the user asks", () => {
		const content = firstPrompt({
			path: "Trips/Lake.md",
			note: NOTE,
			passage: passageOf("We walked to the lake."),
			instruction: "make it vivid",
		});
		const [task] = blocks(content);
		expect(task).toMatchObject({ type: "text" });
		expect(task?.type === "text" && task.text).toMatch(/Trips\/Lake\.md at lines 4 to 4, in the section "Day one"/);
		expect(task?.type === "text" && task.text).toContain("What I ask: make it vivid");
		const docs = documents(content);
		expect(docs.map((doc) => doc.source.data)).toEqual([
			NOTE,
			"## Day one\nWe walked to the lake. Ask @Anna about it.\nIt rained.\n\n",
			"We walked to the lake.",
		]);
	});

	it("makes every @ in the typed words and the titles inert, and leaves the note's own text byte for byte", () => {
		const content = firstPrompt({
			path: "@Trips/Lake.md",
			note: NOTE,
			passage: passageOf("Ask @Anna about it."),
			instruction: "mention @Secret/Plan.md",
		});
		const [task] = blocks(content);
		expect(task?.type === "text" && task.text).not.toMatch(/(^|\s)@/);
		expect(documents(content).every((doc) => !/(^|\s)@/.test(doc.title))).toBe(true);
		expect(documents(content).at(-1)?.source.data).toBe("Ask @Anna about it.");
		// The user's words do not start the message, so no slash command can be read from them.
		expect(task?.type === "text" && task.text.startsWith("Rewrite")).toBe(true);
	});

	it("for an empty passage, asks for text to insert at the cursor, and sends no empty document", () => {
		const at = NOTE.indexOf("\n## Day two");
		const content = firstPrompt({
			path: "Lake.md",
			note: NOTE,
			passage: { from: at, to: at },
			instruction: "a closing line",
		});
		const [task] = blocks(content);
		expect(task?.type === "text" && task.text).toContain("to insert at the cursor on line 6");
		expect(documents(content).every((doc) => doc.source.data !== "")).toBe(true);
	});

	it("leaves the whole note out when it is longer than an attachment may be, and keeps the section and passage", () => {
		const long = `# Big\n${"word ".repeat(MAX_ATTACHED_CHARS / 5)}\nThe line.\n`;
		const from = long.indexOf("The line.");
		const docs = documents(
			firstPrompt({ path: "Big.md", note: long, passage: { from, to: from + 9 }, instruction: "shorter" }),
		);
		expect(docs).toHaveLength(2);
		expect(docs.at(-1)?.source.data).toBe("The line.");
	});

	it("a follow-up carries the passage as the note holds it now and asks again for the whole new passage", () => {
		const content = followUpPrompt("Lake.md", "We walked to the blue lake.", "shorter");
		const [task, passage] = blocks(content);
		expect(task?.type === "text" && task.text).toContain("Change your proposal as I ask: shorter");
		expect(task?.type === "text" && task.text).toContain(REPLACEMENT_OPEN);
		expect(passage).toMatchObject({ type: "document", source: { data: "We walked to the blue lake." } });
	});
});
