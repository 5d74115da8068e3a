import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { WorkspaceLeaf as RealLeaf } from "obsidian";
import { MemoryPermissionRules } from "../../src/agent/gate/permission-rules";
import { entryText } from "../../src/agent/transcript/panel-transcript";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { createAgentEngine } from "../../src/obsidian/agent/agent-engine-runtime";
import type { AgentTab } from "../../src/obsidian/agent/agent-tab";
import { AgentView } from "../../src/obsidian/agent/agent-view";
import { DeviceAgentSettings } from "../../src/obsidian/agent/device-agent-settings";
import { ObsidianPanelVault } from "../../src/obsidian/agent/panel-vault";
import { DEFAULT_AGENT_PANEL_SETTINGS } from "../../src/settings";
import { App, Modal, type FakeElement } from "../__mocks__/obsidian";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import { pollUntil } from "../helpers/wait-until";
import { useBridgeSessions } from "./harness/bridge-session";
import { claudeBinaryPath } from "./harness/cli-binary";
import { headlessCliEnv, makeClaudeHome } from "./harness/claude-home";
import { lastUserText, requestText } from "./harness/messages-request";
import type { MockAnthropic } from "./harness/mock-anthropic";
import { textTurn, toolUseTurn } from "./harness/sse-reply";

/**
 * Rewind and fork in the "Claude Code" panel as a user drives them: the panel's view in the Obsidian stand-in, the
 * engine the plugin builds (`createAgentEngine`: the pinned real CLI, the bridge's gate, review and journal), the
 * mock model API. The user accepts each of Claude's edits in the review, clicks Rewind here or Fork from here on a
 * message, and answers the question. Five CLI launches in all.
 */

const TURN_TIMEOUT_MS = 60_000;
const { startMock, onCleanup } = useBridgeSessions(240_000);

/** Bytes an editor may keep: CRLF line ends, no end of line at the end, a byte order mark, letters beyond ASCII. */
const CHAPTER = Buffer.from("# Chapter\r\nThe first draft — ünïcode", "utf8");
const OUTLINE = Buffer.from("\uFEFF# Outline\nAct one, act two.\n", "utf8");

interface Panel {
	mock: MockAnthropic;
	bridge: AssembledBridge;
	view: AgentView;
	tab: () => AgentTab;
	/** Types the message into the active tab's box and presses Enter; resolves when Claude's turn ended. */
	say: (text: string) => Promise<void>;
	/** Clicks a button of the active tab's row of this message of the user's. */
	click: (message: string, cls: "ccb-agent-rewind" | "ccb-agent-fork") => void;
}

async function openPanel(): Promise<Panel> {
	const mock = await startMock();
	const bridge = await startAssembledBridge({
		journalStore: new MemoryJournalStore(),
		populate: (vault) => {
			writeFileSync(join(vault, "Chapter.md"), CHAPTER);
			writeFileSync(join(vault, "Outline.md"), OUTLINE);
		},
	});
	onCleanup(() => bridge.stop());
	const home = makeClaudeHome([bridge.vaultPath]);
	onCleanup(() => home.remove());
	const engine = createAgentEngine({
		vaultPath: bridge.vaultPath,
		cliPath: () => claudeBinaryPath(),
		bridge: () => bridge.bridge,
		rules: new MemoryPermissionRules(),
		env: headlessCliEnv(home.path, mock.baseUrl),
	});
	// The user: every edit Claude proposes is accepted in the review as it appears.
	const reviewer = setInterval(() => {
		const pending = bridge.bridge.reviews.findPending();
		if (pending) bridge.bridge.reviews.accept(pending.title);
	}, 50);
	onCleanup(() => clearInterval(reviewer));
	const app = new App(bridge.vaultPath, "Vault");
	const view = new AgentView(app.workspace.getLeaf("tab") as unknown as RealLeaf, {
		engine: () => Promise.resolve(engine),
		vault: new ObsidianPanelVault(app as never, () => ({ hidesPath: () => false, hidesFolder: () => false })),
		panelSettings: () => ({ ...DEFAULT_AGENT_PANEL_SETTINGS, permissionMode: "acceptEdits" }),
		// Kept on the device, as the plugin keeps them (Obsidian's local storage for the vault).
		rewindPoints: new DeviceAgentSettings(app),
	});
	view.load();
	await view.onOpen();
	onCleanup(() => view.onClose());
	const tab = (): AgentTab => {
		const active = view.activeTab;
		if (!active) throw new Error("no tab open");
		return active;
	};
	const turnsDone = (): number => tab().transcript.entries.filter((entry) => entry.kind === "usage").length;
	return {
		mock,
		bridge,
		view,
		tab,
		say: async (text) => {
			const done = turnsDone();
			const box = tab().input.textarea as unknown as FakeElement;
			box.value = text;
			box.dispatch("input");
			box.dispatch("keydown", { key: "Enter", shiftKey: false });
			await pollUntil(
				() => (turnsDone() > done && !tab().session.busy ? true : undefined),
				() => `the turn of "${text}" to end (${tab().transcript.entries.map(entryText).join(" | ")})`,
				{ timeoutMs: TURN_TIMEOUT_MS, intervalMs: 50 },
			);
		},
		click: (message, cls) => {
			const row = (tab().el as unknown as FakeElement)
				.findAll("ccb-agent-user")
				.find((candidate) => candidate.findAll("ccb-agent-user-text")[0]?.text === message);
			const button = row?.findAll(cls)[0];
			if (!button) throw new Error(`no ${cls} on "${message}"`);
			button.dispatch("click");
		},
	};
}

/** The user's question, once shown: the words it asks with, and its Rewind button pressed. */
async function answerRewind(): Promise<string[]> {
	const modal = await pollUntil(() => Modal.opened[Modal.opened.length - 1], "the rewind's question", {
		timeoutMs: TURN_TIMEOUT_MS,
	});
	const content = modal.contentEl as unknown as FakeElement;
	const words = content.children.filter((child) => child.tag === "p").map((p) => p.text);
	content.findAll("ccb-rewind-confirm-yes")[0]?.dispatch("click");
	return words;
}

describe("rewind and fork in the Claude Code panel, with the real CLI", () => {
	it("rewinds after three turns that changed two notes: both come back byte for byte, and the next request carries only the turns before", async () => {
		const { mock, bridge, view, tab, say, click } = await openPanel();
		const chapter = join(bridge.vaultPath, "Chapter.md");
		const outline = join(bridge.vaultPath, "Outline.md");
		mock.enqueue(
			toolUseTurn("Read", { file_path: chapter }),
			toolUseTurn("Edit", { file_path: chapter, old_string: "first draft", new_string: "second draft" }),
			textTurn("Chapter moved to its second draft."),
			toolUseTurn("Read", { file_path: outline }),
			toolUseTurn("Edit", { file_path: outline, old_string: "act two", new_string: "act two, act three" }),
			textTurn("Outline has three acts."),
			toolUseTurn("Edit", { file_path: chapter, old_string: "second draft", new_string: "third draft" }),
			textTurn("Chapter moved on again."),
		);
		await say("Move the chapter to its second draft");
		const afterFirstTurn = readFileSync(chapter);
		expect(afterFirstTurn.toString("utf8")).toBe("# Chapter\r\nThe second draft — ünïcode");
		await say("Give the outline a third act");
		await say("And the chapter to its third draft");
		expect(readFileSync(chapter, "utf8")).toContain("third draft");
		expect(readFileSync(outline, "utf8")).toContain("act three");
		const sessionId = tab().session.sessionId;

		click("Give the outline a third act", "ccb-agent-rewind");
		expect((await answerRewind())[0]).toBe(
			"Restores 2 notes to how they were before this message: Outline, Chapter.",
		);
		await pollUntil(
			() => (view.activeTab?.transcript.entries.some((entry) => entry.kind === "notice") ? true : undefined),
			"the rewound conversation",
			{ timeoutMs: TURN_TIMEOUT_MS },
		);
		// The notes as they were before the message, byte for byte: the chapter as the first turn left it.
		expect(readFileSync(outline).equals(OUTLINE)).toBe(true);
		expect(readFileSync(chapter).equals(afterFirstTurn)).toBe(true);
		expect(view.sessions).toHaveLength(1);
		expect(tab().input.textarea.value).toBe("Give the outline a third act");
		expect(
			tab()
				.transcript.entries.filter((entry) => entry.kind === "user")
				.map(entryText),
		).toEqual(["Move the chapter to its second draft"]);

		// Closed before a message went on (the CLI has not recorded the rewind yet), then resumed from the past
		// sessions: it shows and goes on from where the rewind took it.
		if (sessionId === undefined) throw new Error("the session has no id");
		await view.closeTab(tab());
		await view.resume(sessionId);
		expect(
			tab()
				.transcript.entries.filter((entry) => entry.kind === "user")
				.map(entryText),
		).toEqual(["Move the chapter to its second draft"]);

		const since = mock.mainRequests.length;
		mock.enqueue(textTurn("Let us keep two acts then."));
		await say("Keep two acts, but name them");
		const next = await mock.waitForMainRequest({ since });
		expect(lastUserText(next.body)).toContain("Keep two acts, but name them");
		const carried = requestText(next.body);
		expect(carried).toContain("Move the chapter to its second draft");
		expect(carried).toContain("Chapter moved to its second draft.");
		for (const later of ["Give the outline a third act", "Outline has three acts.", "third draft"])
			expect(carried).not.toContain(later);
		// The same conversation went on (the CLI's session), from before the rewound message.
		expect(tab().session.sessionId).toBe(sessionId);
	});

	it("forks from a turn before the last: the fork goes on from there, and the original stays resumable with all its turns", async () => {
		const { mock, view, tab, say, click } = await openPanel();
		mock.enqueue(textTurn("Tomatoes first."), textTurn("Then beans."));
		await say("Plan the garden");
		await say("What comes after tomatoes?");
		const original = tab();
		const originalId = original.session.sessionId;
		if (originalId === undefined) throw new Error("the CLI named no session");

		click("Plan the garden", "ccb-agent-fork");
		await pollUntil(() => (view.sessions.length === 2 ? true : undefined), "the fork's tab");
		expect(tab()).not.toBe(original);
		expect(tab().displayTitle).toBe("Fork: Plan the garden");
		let since = mock.mainRequests.length;
		mock.enqueue(textTurn("Roses, then."));
		await say("Flowers instead?");
		const inFork = requestText((await mock.waitForMainRequest({ since })).body);
		expect(inFork).toContain("Tomatoes first.");
		expect(inFork).not.toContain("What comes after tomatoes?");
		expect(tab().session.sessionId).not.toBe(originalId);

		// The original, ended and resumed as the History list does it, goes on with all its turns and none of the fork's.
		await view.closeTab(original);
		const resumed = await view.resume(originalId);
		expect(resumed?.transcript.entries.filter((entry) => entry.kind === "user").map(entryText)).toEqual([
			"Plan the garden",
			"What comes after tomatoes?",
		]);
		since = mock.mainRequests.length;
		mock.enqueue(textTurn("Then carrots."));
		await say("And after beans?");
		const inOriginal = requestText((await mock.waitForMainRequest({ since })).body);
		for (const turn of ["Plan the garden", "Tomatoes first.", "What comes after tomatoes?", "Then beans."])
			expect(inOriginal).toContain(turn);
		expect(inOriginal).not.toContain("Flowers instead?");
		expect(tab().session.sessionId).toBe(originalId);
	});
});
