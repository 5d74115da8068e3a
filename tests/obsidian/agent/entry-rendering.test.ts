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
		expect(element.findAll("ccb-agent-tool-header")[0]?.textContent).toBe("DoneGreptodo");
		expect(element.findAll("ccb-agent-tool-result")).toEqual([]);
		element.findAll("ccb-agent-tool-header")[0]?.dispatch("click");
		expect([...expanded]).toEqual([4]);
		const open = draw(entry, { isExpanded: () => true }).element;
		expect(open.findAll("ccb-agent-tool-result")[0]?.text).toBe("3 matches");
		expect(open.findAll("ccb-agent-tool-input")[0]?.text).toBe('{\n  "pattern": "todo"\n}');
	});

	it("draws a settled permission question without buttons", () => {
		const { element } = draw({
			kind: "permission",
			id: 2,
			request: { id: "p", toolName: "Bash", input: {}, summary: "Bash: rm -rf build" },
			status: "denied",
		});
		expect(element.findAll("ccb-agent-permission-outcome")[0]?.text).toBe("Denied");
		expect(element.findAll("ccb-agent-permission-choice")).toEqual([]);
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
