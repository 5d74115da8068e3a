import type { ToolPermissionAnswer } from "../../../src/agent/agent-session";
import type { TranscriptEntry } from "../../../src/agent/transcript/panel-transcript";
import { drawEntry, type EntryContext } from "../../../src/obsidian/agent/entry-rendering";
import { FakeElement } from "../../__mocks__/obsidian";

function draw(entry: TranscriptEntry, overrides: Partial<EntryContext> = {}) {
	const expanded = new Set<number>();
	const answers: [string, ToolPermissionAnswer][] = [];
	const context: EntryContext = {
		openInternal: () => undefined,
		isExpanded: (id) => expanded.has(id),
		toggleExpanded: (id) => expanded.add(id),
		answered: () => undefined,
		answer: (id, answer) => answers.push([id, answer]),
		toVaultPath: (path) => (path.startsWith("/vault/") ? path.slice("/vault/".length) : undefined),
		openReview: () => undefined,
		planEdit: () => ({ editing: false, focus: false }),
		redrawPermission: () => undefined,
		...overrides,
	};
	const element = new FakeElement();
	drawEntry(element as unknown as HTMLElement, entry, context);
	return { element, expanded, answers, context };
}

describe("drawEntry", () => {
	it("draws the user's message as text (never as Markdown) with its attachments", () => {
		const { element } = draw({
			kind: "user",
			id: 1,
			text: "**not bold** [[link]]",
			attachments: [{ path: "A.md" }, { path: "B.md", lines: { from: 3, to: 7 } }],
			state: "sent",
		});
		expect(element.findAll("ccb-agent-user-text")[0]?.text).toBe("**not bold** [[link]]");
		expect(element.findAll("ccb-agent-attachment").map((chip) => chip.text)).toEqual(["A.md", "B.md (lines 3–7)"]);
		expect(element.findAll("ccb-agent-queued")).toEqual([]);
	});

	it("offers Rewind here and Fork from here as buttons on a message the CLI took, none on one still queued", () => {
		const asked: string[] = [];
		const actions = {
			rewind: (id: number) => void asked.push(`rewind ${id}`),
			fork: (id: number) => void asked.push(`fork ${id}`),
		};
		const sent = draw(
			{ kind: "user", id: 4, text: "Tighten the intro", attachments: [], state: "sent", messageId: "m4" },
			actions,
		).element;
		const buttons = sent.findAll("ccb-agent-turn-actions")[0]?.children ?? [];
		expect(buttons.map((button) => [button.tag, button.text])).toEqual([
			["button", "Rewind here"],
			["button", "Fork from here"],
		]);
		expect(buttons[0]?.attributes.get("aria-label")).toBe(
			"Rewind here: go back to before this message and restore the notes Claude changed since",
		);
		buttons[0]?.dispatch("click");
		buttons[1]?.dispatch("click");
		expect(asked).toEqual(["rewind 4", "fork 4"]);
		const queued = draw({ kind: "user", id: 5, text: "Later", attachments: [], state: "queued" }, actions).element;
		expect(queued.findAll("ccb-agent-turn-actions")).toEqual([]);
		// A panel that cannot rewind or fork offers neither.
		const without = draw({ kind: "user", id: 6, text: "x", attachments: [], state: "sent", messageId: "m6" });
		expect(without.element.findAll("ccb-agent-turn-actions")).toEqual([]);
	});

	it("names the images a message carried, and says what did not go with it and why", () => {
		const { element } = draw({
			kind: "user",
			id: 1,
			text: "What is this?",
			attachments: [{ path: "A.md" }],
			images: ["shot.png"],
			notSent: ["“face.jpg” is in a private place."],
			state: "sent",
		});
		expect(element.findAll("ccb-agent-attachment").map((chip) => chip.text)).toEqual(["A.md", "Image: shot.png"]);
		expect(element.findAll("ccb-agent-not-sent").map((line) => line.text)).toEqual([
			"Not sent: “face.jpg” is in a private place.",
		]);
	});

	it("draws Claude's request to leave plan mode as the plan card, not as a tool question", () => {
		const { element } = draw({
			kind: "permission",
			id: 2,
			request: { id: "p1", toolName: "ExitPlanMode", input: {}, summary: "", plan: "1. Draft", scopes: ["once"] },
			status: "pending",
		});
		expect(element.findAll("ccb-agent-plan-card")).toHaveLength(1);
		expect(element.findAll("ccb-agent-allow-once")).toEqual([]);
	});

	it("draws a tool card folded, with its input and result once opened", () => {
		const entry: TranscriptEntry = {
			kind: "tool",
			id: 4,
			toolUseId: "t",
			toolName: "Grep",
			input: { pattern: "todo" },
			status: "done",
			result: "3 matches",
		};
		const { element, expanded } = draw(entry);
		expect(element.findAll("ccb-agent-tool-header")[0]?.textContent).toBe("Searched files for “todo”Details");
		expect(element.findAll("ccb-agent-tool-result")).toEqual([]);
		const toggle = element.findAll("ccb-agent-tool-toggle")[0];
		expect(toggle?.tag).toBe("button");
		expect(toggle?.attributes.get("aria-expanded")).toBe("false");
		toggle?.dispatch("click");
		expect([...expanded]).toEqual([4]);
		const open = draw(entry, { isExpanded: () => true }).element;
		expect(open.findAll("ccb-agent-tool-name")[0]?.text).toBe("Grep");
		expect(open.findAll("ccb-agent-tool-result")[0]?.text).toBe("3 matches");
		expect(open.findAll("ccb-agent-tool-input")[0]?.text).toBe('{\n  "pattern": "todo"\n}');
	});

	it("says what a tool did in words, with the note it read as a link that opens it", () => {
		const opened: string[] = [];
		const { element } = draw(
			{
				kind: "tool",
				id: 5,
				toolUseId: "t",
				toolName: "mcp__obsidian__read_note",
				input: { path: "/vault/Essays/On walking.md" },
				status: "done",
				result: "…",
			},
			{ openInternal: (target) => opened.push(target) },
		);
		expect(element.findAll("ccb-agent-tool-summary")[0]?.textContent).toBe("Read On walking");
		expect(element.findAll("ccb-agent-tool-status")).toEqual([]);
		element.findAll("ccb-agent-tool-note")[0]?.dispatch("click", { preventDefault: () => undefined });
		expect(opened).toEqual(["Essays/On walking.md"]);
	});

	it("says a tool call whose permission question is open waits for the user's answer, not that it runs", () => {
		const entry: TranscriptEntry = {
			kind: "tool",
			id: 9,
			toolUseId: "bash-1",
			toolName: "Bash",
			input: { command: "wc -w Essays/*.md", description: "Count the words in each essay" },
			status: "running",
			asking: true,
		};
		const asking = draw(entry).element;
		expect(asking.findAll("ccb-agent-tool-status")[0]?.text).toBe("Waiting for your answer");
		expect(asking.findAll("ccb-agent-tool-summary")[0]?.textContent).toBe(
			"Run a shell command (Count the words in each essay)",
		);
		expect(asking.findAll("ccb-agent-tool-asking")).toHaveLength(1);
		const answered = draw({ ...entry, asking: false }).element;
		expect(answered.findAll("ccb-agent-tool-status")[0]?.text).toBe("Running");
	});

	it("shows an edit waiting for review with Open review, then the decision; a gate's reason without Claude Code's hook wording", () => {
		const reviews: string[] = [];
		const waiting = draw(
			{
				kind: "tool",
				id: 8,
				toolUseId: "edit-1",
				toolName: "Edit",
				input: { file_path: "/vault/Welcome.md", old_string: "a", new_string: "b" },
				status: "running",
				review: { state: "waiting" },
			},
			{ openReview: (id) => reviews.push(id) },
		).element;
		expect(waiting.findAll("ccb-agent-tool-status")[0]?.text).toBe("Waiting for your review");
		// Nothing is edited yet: the sentence says what Claude proposes.
		expect(waiting.findAll("ccb-agent-tool-summary")[0]?.textContent).toBe("Edit Welcome");
		waiting.findAll("ccb-agent-open-review")[0]?.dispatch("click");
		expect(reviews).toEqual(["edit-1"]);
		const rejected = draw({
			kind: "tool",
			id: 8,
			toolUseId: "edit-1",
			toolName: "Edit",
			input: { file_path: "/vault/Welcome.md" },
			status: "error",
			result: "PreToolUse:Edit hook error: the user rejected the change in the review: keep my wording",
			review: { state: "decided", words: "Rejected: keep my wording" },
		}).element;
		expect(rejected.findAll("ccb-agent-tool-decision")[0]?.text).toBe("Rejected: keep my wording");
		expect(rejected.findAll("ccb-agent-tool-summary")[0]?.textContent).toBe("Edit Welcome");
		const accepted = draw({
			kind: "tool",
			id: 8,
			toolUseId: "edit-1",
			toolName: "Edit",
			input: { file_path: "/vault/Welcome.md" },
			status: "done",
			result: "The file has been updated.",
			review: { state: "decided", words: "Accepted" },
		}).element;
		expect(accepted.findAll("ccb-agent-tool-summary")[0]?.textContent).toBe("Edited Welcome");
		expect(rejected.findAll("ccb-agent-open-review")).toEqual([]);
		const denied = draw({
			kind: "tool",
			id: 9,
			toolUseId: "w",
			toolName: "Write",
			input: { file_path: "/vault/New.md" },
			status: "error",
			result: "PreToolUse:Write hook error: The user denied this use of Write: not now",
		}).element;
		expect(denied.findAll("ccb-agent-tool-problem")[0]?.text).toBe("You said no: not now");
		expect(denied.findAll("ccb-agent-tool-status")[0]?.text).toBe("Did not run");
	});

	it("folds an answered permission question to one line without buttons", () => {
		const { element } = draw({
			kind: "permission",
			id: 2,
			request: { id: "p", toolName: "WebFetch", input: {}, summary: "WebFetch: https://example.com" },
			status: "denied",
		});
		expect(element.findAll("ccb-agent-permission-outcome")[0]?.text).toBe("Denied: Claude wants to use WebFetch");
		expect(element.findAll("ccb-agent-permission-choice")).toEqual([]);
		expect(element.findAll("ccb-agent-permission-status")).toEqual([]);
	});

	it("asks with Allow once as the main action, and says it waits for the user's answer", () => {
		const { element } = draw({
			kind: "permission",
			id: 3,
			request: { id: "p", toolName: "WebFetch", input: {}, summary: "WebFetch: https://example.com" },
			status: "pending",
		});
		expect(element.findAll("ccb-agent-permission-status")[0]?.text).toBe("Waiting for your answer");
		expect(element.findAll("ccb-agent-permission-summary")[0]?.text).toBe("WebFetch: https://example.com");
		const once = element.findAll("ccb-agent-allow-once")[0];
		expect(once?.classes.has("mod-cta")).toBe(true);
		expect(element.findAll("mod-cta")).toEqual([once]);
	});

	it("asks about a shell command in words: Claude's description, the command, the folder, the sandbox; without the sandbox it offers only once", () => {
		const shell = {
			command: "grep -rn SECRET .",
			description: "Search every note",
			folder: "",
			sandboxed: false,
			unsandboxedBecause: "bubblewrap (bwrap) is not installed",
		};
		const { element, answers } = draw({
			kind: "permission",
			id: 6,
			request: {
				id: "p",
				toolName: "Bash",
				input: {},
				summary: "Bash: grep -rn SECRET .",
				shell,
				scopes: ["once"],
			},
			status: "pending",
		});
		expect(element.findAll("ccb-agent-permission-question")[0]?.text).toBe(
			"Claude wants to run a shell command: Search every note",
		);
		expect(element.findAll("ccb-agent-permission-command")[0]?.text).toBe("grep -rn SECRET .");
		expect(element.findAll("ccb-agent-permission-folder")[0]?.text).toBe("In the vault's top folder");
		expect(element.findAll("ccb-agent-sandbox-off")[0]?.text).toBe(
			"Sandbox off (bubblewrap (bwrap) is not installed): it can read and change any file you can, private notes included, so it can only be allowed once.",
		);
		expect(element.findAll("ccb-agent-permission-choice").map((button) => button.text)).toEqual([
			"Allow once",
			"Deny",
		]);
		element.findAll("ccb-agent-allow-once")[0]?.dispatch("click");
		expect(answers).toEqual([["p", { kind: "allow", scope: "once" }]]);
		const sandboxed = draw({
			kind: "permission",
			id: 7,
			request: {
				id: "q",
				toolName: "Bash",
				input: {},
				summary: "Bash: ls",
				shell: { command: "ls", folder: "Notes", sandboxed: true },
			},
			status: "pending",
		}).element;
		expect(sandboxed.findAll("ccb-agent-sandbox-on")).toHaveLength(1);
		expect(sandboxed.findAll("ccb-agent-permission-folder")[0]?.text).toBe("In Notes");
		expect(sandboxed.findAll("ccb-agent-permission-choice").map((button) => button.text)).toEqual([
			"Allow once",
			"Allow for this session",
			"Always allow",
			"Deny",
		]);
	});

	it("draws the usage line with the turn's error, and notices", () => {
		expect(
			draw({ kind: "usage", id: 3, outcome: "error", usage: {}, error: "rate limited" }).element.findAll(
				"ccb-agent-usage",
			)[0]?.text,
		).toBe("Turn failed: rate limited");
		expect(
			draw({ kind: "notice", id: 5, text: "The session ended.", level: "info" }).element.findAll(
				"ccb-agent-notice-info",
			)[0]?.text,
		).toBe("The session ended.");
	});
});
