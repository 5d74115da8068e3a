import type { WorkspaceLeaf as RealLeaf } from "obsidian";
import { unreachableByKeyboard } from "../../helpers/keyboard-reach";
import type { AgentEvent } from "../../../src/agent/agent-session";
import { entryText } from "../../../src/agent/transcript/panel-transcript";
import { AgentView, type AgentPanelHost } from "../../../src/obsidian/agent/agent-view";
import { ObsidianPanelVault } from "../../../src/obsidian/agent/panel-vault";
import { DEFAULT_AGENT_PANEL_SETTINGS, type AgentPanelSettings } from "../../../src/settings";
import { App, Modal, Plugin, type FakeElement } from "../../__mocks__/obsidian";
import { FakeAgentEngine, type FakeAgentSession } from "../../helpers/fake-agent-engine";
import { TINY_PNG } from "../../helpers/image-bytes";
import { pollUntil } from "../../helpers/wait-until";

interface Panel {
	app: App;
	view: AgentView;
	engine: FakeAgentEngine;
	settings: AgentPanelSettings;
	root: FakeElement;
	session: () => FakeAgentSession;
	one: (cls: string, within?: FakeElement) => FakeElement;
	send: (text: string) => void;
	rows: () => FakeElement[];
	/** The rewind points the panel keeps, by session. */
	rewindPoints: Map<string, string>;
}

async function openPanel(prepare: (engine: FakeAgentEngine, app: App) => void = () => undefined): Promise<Panel> {
	const app = new App("/vault", "Vault");
	app.vault.writeExternally("Notes/A.md", "# A\n");
	const engine = new FakeAgentEngine();
	prepare(engine, app);
	const settings: AgentPanelSettings = { ...DEFAULT_AGENT_PANEL_SETTINGS, exportFolder: "Chats/Claude" };
	const rewindPoints = new Map<string, string>();
	const host: AgentPanelHost = {
		engine: () => Promise.resolve(engine),
		vault: new ObsidianPanelVault(app as never, () => ({ hidesPath: () => false, hidesFolder: () => false })),
		panelSettings: () => settings,
		rewindPoints: {
			rewindPoint: (sessionId) => rewindPoints.get(sessionId),
			setRewindPoint: (sessionId, at) => {
				if (at === undefined) rewindPoints.delete(sessionId);
				else rewindPoints.set(sessionId, at);
			},
		},
	};
	const view = new AgentView(app.workspace.getLeaf("tab") as unknown as RealLeaf, host);
	view.load();
	await view.onOpen();
	const root = view.contentEl as unknown as FakeElement;
	const visible = (element: FakeElement): FakeElement => {
		// The active tab's parts: other tabs are hidden.
		const tab = root.findAll("ccb-agent-tab").find((candidate) => !candidate.hasClass("is-hidden"));
		return tab && element === root ? tab : element;
	};
	const one = (cls: string, within: FakeElement = root): FakeElement => {
		const found = visible(within).findAll(cls)[0];
		if (!found) throw new Error(`no .${cls}`);
		return found;
	};
	return {
		app,
		view,
		engine,
		settings,
		root,
		session: () => engine.latest,
		one,
		send: (text) => {
			const box = one("ccb-agent-textarea");
			box.value = text;
			box.dispatch("input");
			box.dispatch("keydown", { key: "Enter", shiftKey: false });
		},
		rows: () => visible(root).findAll("ccb-agent-row"),
		rewindPoints,
	};
}

/** `count` messages, alternating the user's and Claude's, as a past session's history gives them. */
function conversation(count: number): AgentEvent[] {
	const events: AgentEvent[] = [];
	for (let index = 0; index < count; index++) {
		if (index % 2 === 0)
			events.push({
				kind: "user-message",
				message: { text: `Question ${index}: what about note ${index}?`, attachments: [] },
			});
		else
			events.push({
				kind: "text-delta",
				blockId: `b${index}`,
				text: `Answer ${index}: **note ${index}** says\n\n- point one\n- point two`,
			});
	}
	return events;
}

const countElements = (element: FakeElement): number =>
	element.children.reduce((sum, child) => sum + 1 + countElements(child), 0);

describe("the Claude Code panel", () => {
	it("streams a reply into the transcript in place, drawing only the rows in view", async () => {
		const { session, send, rows, one } = await openPanel();
		for (let turn = 0; turn < 100; turn++) {
			send(`Message ${turn}`);
			session().reply([`Reply ${turn}`]);
		}
		send("Write a haiku");
		session().emit({ kind: "text-delta", blockId: "h", text: "Ink on " });
		const row = rows().find((candidate) => candidate.textContent.startsWith("Ink on"));
		const reply = (): FakeElement | undefined => row?.findAll("ccb-agent-reply")[0];
		expect(reply()?.hasClass("is-streaming")).toBe(true);
		session().emit({ kind: "text-delta", blockId: "h", text: "**the page**" });
		// The same row element, its content drawn again with the grown text; the end of the transcript stays in view.
		expect(rows().find((candidate) => candidate.textContent.startsWith("Ink on"))).toBe(row);
		expect(row?.textContent).toBe("Ink on the page");
		expect(reply()?.findAll("ccb-agent-reply")).toEqual([]);
		expect(rows().length).toBeLessThanOrEqual(30);
		expect(rows()[rows().length - 1]).toBe(row);
		session().emit({
			kind: "turn-end",
			outcome: "done",
			usage: { inputTokens: 2000, outputTokens: 17, costUsd: 0.5 },
		});
		expect(reply()?.hasClass("is-streaming")).toBe(false);
		expect(one("ccb-agent-scroll").findAll("ccb-agent-usage").pop()?.text).toBe(
			"Turn done: 2,000 tokens in, 17 out · $0.5000",
		);
	});

	it("keeps 2,000 messages to a window of rows while scrolling and filtering: each step draws a bounded number of elements", async () => {
		const { view, engine, rows, one, root } = await openPanel((engine) => {
			engine.past = [{ sessionId: "long", firstLine: "Question 0", updatedAt: "2026-11-26T10:00:00Z" }];
			engine.histories.set("long", conversation(2000));
		});
		const tab = await view.resume("long");
		expect(engine.latest.options.resume).toBe("long");
		expect(tab?.transcript.entries).toHaveLength(2000);
		const scroll = one("ccb-agent-scroll");
		// Opened at its end.
		expect(rows().length).toBeLessThanOrEqual(30);
		expect(rows()[rows().length - 1]?.textContent).toContain("Answer 1999");

		const elementsAfter: number[] = [];
		scroll.clientHeight = 600;
		for (const position of [0, 0.25, 0.5, 0.75, 0.999]) {
			scroll.scrollTop = Math.floor(position * (tab?.list.totalHeight ?? 0));
			scroll.dispatch("scroll");
			const drawn = rows();
			expect(drawn.length).toBeGreaterThan(0);
			expect(drawn.length).toBeLessThanOrEqual(40);
			elementsAfter.push(countElements(root));
		}
		// Rows near the middle are the middle's messages.
		scroll.scrollTop = Math.floor(0.5 * (tab?.list.totalHeight ?? 0));
		scroll.dispatch("scroll");
		const middle = rows().map((row) => Number(/(?:Question|Answer) (\d+)/.exec(row.textContent)?.[1]));
		expect(Math.min(...middle)).toBeGreaterThan(700);
		expect(Math.max(...middle)).toBeLessThan(1300);
		// However far the user scrolls, the panel holds about the same number of elements (no growth with the length).
		expect(Math.max(...elementsAfter)).toBeLessThan(800);

		const filter = one("ccb-agent-filter");
		filter.value = "note 1777";
		filter.dispatch("input");
		expect(tab?.list.shown).toHaveLength(1);
		expect(rows().map((row) => row.textContent)).toEqual(["Answer 1777: note 1777 sayspoint onepoint two"]);
		filter.value = "no such words";
		filter.dispatch("input");
		expect(rows()).toEqual([]);
		expect(one("ccb-agent-empty").text).toBe("Nothing in this session matches the filter.");
		filter.value = "";
		filter.dispatch("input");
		expect(tab?.list.shown).toHaveLength(2000);
		expect(countElements(root)).toBeLessThan(800);
		// A taller panel (Obsidian calls onResize) shows more rows, a shorter one fewer.
		scroll.clientHeight = 100;
		view.onResize();
		const few = rows().length;
		scroll.clientHeight = 1500;
		view.onResize();
		expect(rows().length).toBeGreaterThan(few);
	});

	it("shows a message typed while Claude works as queued, and sends it when the turn ends", async () => {
		const { session, send, rows } = await openPanel();
		send("First");
		expect(session().busy).toBe(true);
		send("Second, while busy");
		const queued = rows()
			.find((row) => row.textContent.includes("Second, while busy"))
			?.findAll("ccb-agent-user")[0];
		expect(queued?.hasClass("is-queued")).toBe(true);
		expect(queued?.findAll("ccb-agent-queued")[0]?.text).toBe("Queued: sent when Claude finishes");
		session().reply(["Done with the first."]);
		const sent = rows()
			.find((row) => row.textContent.includes("Second, while busy"))
			?.findAll("ccb-agent-user")[0];
		expect(sent?.hasClass("is-queued")).toBe(false);
		expect(sent?.findAll("ccb-agent-queued")).toEqual([]);
		expect(rows().filter((row) => row.textContent.includes("Second, while busy"))).toHaveLength(1);
		expect(session().sent.map((message) => message.text)).toEqual(["First", "Second, while busy"]);
	});

	it("offers Stop while Claude works, and Stop interrupts the turn", async () => {
		const { session, send, one } = await openPanel();
		const stop = one("ccb-agent-stop");
		expect(stop.hasClass("is-hidden")).toBe(true);
		// In the message box's row, beside Send.
		expect(stop.parent?.findAll("ccb-agent-send")).toHaveLength(1);
		send("Long task");
		expect(stop.hasClass("is-hidden")).toBe(false);
		stop.dispatch("click");
		await pollUntil(() => (session().interrupts === 1 ? true : undefined), "the interrupt");
		expect(stop.hasClass("is-hidden")).toBe(true);
		expect(one("ccb-agent-scroll").findAll("ccb-agent-usage").pop()?.text).toBe("Stopped");
	});

	it("asks permission in a card: allow once, for the session, always, or deny with a reason", async () => {
		const { session, one } = await openPanel();
		const ask = (id: string): void =>
			session().emit({
				kind: "permission-request",
				request: { id, toolName: "Bash", input: { command: "npm test" }, summary: "Bash: npm test" },
			});
		const card = (): FakeElement => one("ccb-agent-scroll").findAll("ccb-agent-permission").pop() as FakeElement;
		const choices: [string, string][] = [
			["p1", "ccb-agent-allow-once"],
			["p2", "ccb-agent-allow-session"],
			["p3", "ccb-agent-allow-always"],
		];
		for (const [id, cls] of choices) {
			ask(id);
			expect(card().findAll("ccb-agent-permission-summary")[0]?.text).toBe("Bash: npm test");
			card().findAll(cls)[0]?.dispatch("click");
			expect(card().findAll("ccb-agent-permission-outcome")[0]?.text).toBe("Allowing…: Claude wants to use Bash");
			session().emit({ kind: "permission-settled", id, outcome: "allowed" });
			expect(card().findAll("ccb-agent-permission-outcome")[0]?.text).toBe("Allowed: Claude wants to use Bash");
		}
		ask("p4");
		const reason = card().findAll("ccb-agent-deny-reason")[0];
		reason.value = "  not on this machine ";
		card().findAll("ccb-agent-deny")[0]?.dispatch("click");
		ask("p5");
		card().findAll("ccb-agent-deny")[0]?.dispatch("click");
		expect(session().answers).toEqual([
			{ id: "p1", answer: { kind: "allow", scope: "once" } },
			{ id: "p2", answer: { kind: "allow", scope: "session" } },
			{ id: "p3", answer: { kind: "allow", scope: "always" } },
			{ id: "p4", answer: { kind: "deny", reason: "not on this machine" } },
			{ id: "p5", answer: { kind: "deny" } },
		]);
	});

	it("runs nothing in a reply that holds a dataviewjs block: another plugin's processor is never called, the text shows as code", async () => {
		const { app, session, send, rows } = await openPanel();
		const dataview = new Plugin(app, { id: "dataview", name: "Dataview", version: "1" });
		dataview.load();
		const processor = jest.fn();
		dataview.registerMarkdownCodeBlockProcessor("dataviewjs", processor);
		send("Make me a table");
		session().reply(["Try this:\n\n```dataview", "js\nawait dv.io.load('secrets.md')\n```\n"]);
		const code = rows().flatMap((row) => row.findAll("ccb-agent-code"))[0];
		expect(code?.findAll("ccb-agent-code-language")[0]?.text).toBe("dataviewjs");
		expect(code?.children.find((child) => child.tag === "code")?.text).toBe("await dv.io.load('secrets.md')");
		expect(processor).not.toHaveBeenCalled();
		dataview.unload();
	});

	it("runs several sessions in tabs; closing a tab ends its session", async () => {
		const { view, engine, root, send } = await openPanel();
		send("In the first tab");
		root.findAll("ccb-agent-new-tab")[0]?.dispatch("click");
		await pollUntil(() => (engine.sessions.length === 2 ? true : undefined), "a second session");
		send("In the second tab");
		const [first, second] = engine.sessions;
		expect(first?.sent.map((message) => message.text)).toEqual(["In the first tab"]);
		expect(second?.sent.map((message) => message.text)).toEqual(["In the second tab"]);
		const titles = (): string[] => root.findAll("ccb-agent-tab-name").map((name) => name.text);
		expect(titles()).toEqual(["In the first tab", "In the second tab"]);
		expect(root.findAll("ccb-agent-tab-title").map((tab) => tab.hasClass("is-active"))).toEqual([false, true]);
		// Both sessions work: the tab bar says so, and stops saying so for the first when its turn ends.
		expect(root.findAll("ccb-agent-tab-title").map((tab) => tab.hasClass("is-busy"))).toEqual([true, true]);
		// Events of a background session still land in its own transcript.
		first?.reply(["Reply to the first"]);
		expect(view.sessions[0]?.transcript.entries.map((entry) => entry.kind)).toEqual(["user", "assistant", "usage"]);
		expect(view.sessions[1]?.transcript.entries.map((entry) => entry.kind)).toEqual(["user"]);
		expect(root.findAll("ccb-agent-tab-title").map((tab) => tab.hasClass("is-busy"))).toEqual([false, true]);

		root.findAll("ccb-agent-tab-close")[0]?.dispatch("click");
		await pollUntil(() => (first?.closed ? true : undefined), "the first session to end");
		expect(first?.listenerCount).toBe(0);
		expect(titles()).toEqual(["In the second tab"]);
		expect(view.activeTab?.session).toBe(second);
		// Closing the last tab starts a fresh session, so the panel is never empty.
		root.findAll("ccb-agent-tab-close")[0]?.dispatch("click");
		await pollUntil(() => (engine.sessions.length === 3 ? true : undefined), "a fresh session");
		expect(second?.closed).toBe(true);
		expect(titles()).toEqual(["New session"]);
		await view.onClose();
		expect(engine.sessions.every((session) => session.closed)).toBe(true);
	});

	it("lists past sessions with their first line and resumes one in a new tab, its history shown", async () => {
		const { engine, root, view } = await openPanel((engine) => {
			engine.past = [
				{ sessionId: "old", firstLine: "Plan the garden", updatedAt: "2026-11-20T09:00:00Z" },
				{ sessionId: "new", firstLine: "Tidy my inbox", updatedAt: "2026-11-26T09:00:00Z" },
			];
			engine.histories.set("old", [
				{ kind: "user-message", message: { text: "Plan the garden", attachments: [] } },
				{ kind: "text-delta", blockId: "x", text: "Tomatoes first." },
				{ kind: "turn-end", outcome: "done", usage: {} },
			]);
		});
		root.findAll("ccb-agent-history-button")[0]?.dispatch("click");
		const rows = await pollUntil(
			() =>
				root.findAll("ccb-agent-history-row").length === 2 ? root.findAll("ccb-agent-history-row") : undefined,
			"the past sessions",
		);
		expect(rows.map((row) => row.findAll("ccb-agent-history-line")[0]?.text)).toEqual([
			"Tidy my inbox",
			"Plan the garden",
		]);
		rows[1]?.dispatch("click");
		await pollUntil(() => (engine.sessions.length === 2 ? true : undefined), "the resumed session");
		expect(engine.latest.options).toMatchObject({ resume: "old", permissionMode: "default" });
		expect(view.activeTab?.displayTitle).toBe("Plan the garden");
		expect(view.activeTab?.transcript.entries.map((entry) => entry.kind)).toEqual(["user", "assistant", "usage"]);
		expect(root.findAll("ccb-agent-history-row")).toEqual([]);
	});

	it("exports a session as a Markdown note in the folder from the settings, listing its messages in order", async () => {
		const { app, session, send, one, view } = await openPanel();
		session().emit({ kind: "ready", sessionId: "abc-123", slashCommands: [], model: "sonnet" });
		send("What links to Notes/A?");
		session().emit({
			kind: "tool-call",
			toolUseId: "t1",
			toolName: "mcp__obsidian__links",
			input: { path: "Notes/A.md" },
		});
		session().emit({ kind: "tool-result", toolUseId: "t1", isError: false, text: "Notes/B.md" });
		session().reply(["Only ", "**Notes/B** links to it."]);
		send("Thanks");
		session().reply(["You're welcome."]);
		one("ccb-agent-export").dispatch("click");
		const [path, text] = await pollUntil(
			() => [...app.vault.contents.entries()].find(([candidate]) => candidate.startsWith("Chats/Claude/")),
			"the exported note",
		);
		expect(path).toMatch(/^Chats\/Claude\/Claude \d{4}-\d\d-\d\d \d\d-\d\d What links to Notes A.md$/);
		expect(text).toContain('claude-session: "abc-123"');
		const messages =
			view.activeTab?.transcript.entries.flatMap((entry) =>
				entry.kind === "user" ? [`> ${entry.text}`] : entry.kind === "assistant" ? [entry.text] : [],
			) ?? [];
		expect(messages).toEqual([
			"> What links to Notes/A?",
			"Only **Notes/B** links to it.",
			"> Thanks",
			"You're welcome.",
		]);
		const positions = messages.map((message) => text.indexOf(message));
		expect(positions.every((position) => position > 0)).toBe(true);
		expect([...positions].sort((a, b) => a - b)).toEqual(positions);
		expect(text).toContain("- Tool `mcp__obsidian__links` (done): Notes/A.md");
	});

	it("offers the CLI's slash commands and models from its first answer, before any message is sent; Send sends", async () => {
		const { session, one } = await openPanel();
		session().emit({
			kind: "offers",
			commands: [{ name: "compact", description: "Clear the history but keep a summary" }],
			models: [
				{ value: "default", label: "Default (recommended)", description: "" },
				{ value: "opus", label: "Opus", description: "" },
			],
		});
		const box = one("ccb-agent-textarea");
		box.value = "/c";
		box.dispatch("input");
		expect(one("ccb-agent-suggest").findAll("ccb-agent-suggestion-detail")[0]?.text).toBe(
			"Clear the history but keep a summary",
		);
		expect(one("ccb-agent-model").children.map((option) => option.text)).toEqual(["Default (recommended)", "Opus"]);
		box.dispatch("keydown", { key: "Escape" });
		box.value = "Hello";
		one("ccb-agent-send").dispatch("click");
		expect(session().sent.map((message) => message.text)).toEqual(["Hello"]);
	});

	it("lets the keyboard reach everything a mouse can click: tabs, past sessions, tool cards, links, permission and review buttons", async () => {
		const { view, session, send, root, engine } = await openPanel();
		engine.past = [{ sessionId: "old", firstLine: "Earlier", updatedAt: new Date(0).toISOString() }];
		await view.newSession();
		send("Tidy [[A]] please");
		session().emit({ kind: "text-delta", blockId: "m:0", text: "See [[Notes/A]]." });
		session().emit({
			kind: "tool-call",
			toolUseId: "t1",
			toolName: "Read",
			input: { file_path: "/vault/Notes/A.md" },
		});
		session().emit({
			kind: "tool-call",
			toolUseId: "t2",
			toolName: "Edit",
			input: { file_path: "/vault/Notes/A.md" },
		});
		session().emit({ kind: "review-waiting", toolUseId: "t2" });
		session().emit({
			kind: "permission-request",
			request: { id: "p", toolName: "WebFetch", input: {}, summary: "WebFetch: https://example.com" },
		});
		root.findAll("ccb-agent-history-button")[0]?.dispatch("click");
		await pollUntil(
			() => (root.findAll("ccb-agent-history-row").length === 1 ? true : undefined),
			"the past sessions",
		);
		expect(root.findAll("ccb-agent-open-review")).toHaveLength(1);
		expect(unreachableByKeyboard(root)).toEqual([]);
	});

	it("changes the model and the permission mode of the running session, and offers the CLI's slash commands", async () => {
		const { session, one } = await openPanel();
		session().emit({
			kind: "ready",
			sessionId: "s",
			slashCommands: ["compact", "cost", "review"],
			model: "claude-opus-4-1-20250805",
			cliVersion: "2.1.0",
		});
		// The model in words, without Claude Code's version or the model's id.
		expect(one("ccb-agent-status").text).toBe("Model: Opus 4.1");
		const model = one("ccb-agent-model");
		model.value = "opus";
		model.dispatch("change");
		model.value = "";
		model.dispatch("change");
		const mode = one("ccb-agent-mode");
		mode.value = "plan";
		mode.dispatch("change");
		expect(session().models).toEqual(["opus", undefined]);
		expect(session().modes).toEqual(["plan"]);
		const box = one("ccb-agent-textarea");
		box.value = "/co";
		box.dispatch("input");
		expect(
			one("ccb-agent-suggest")
				.findAll("ccb-agent-suggestion-label")
				.map((label) => label.text),
		).toEqual(["/compact", "/cost"]);
		box.dispatch("keydown", { key: "ArrowDown" });
		box.dispatch("keydown", { key: "Enter", shiftKey: false });
		expect(box.value).toBe("/cost ");
		expect(session().sent).toEqual([]);
	});

	/** Three turns in session "s-1": each message, then Claude's reply. */
	async function threeTurns(): Promise<Panel & { click: (text: string, action: "rewind" | "fork") => void }> {
		const panel = await openPanel();
		panel.session().emit({ kind: "ready", sessionId: "s-1", slashCommands: [] });
		for (const [message, reply] of [
			["One", "First reply."],
			["Two", "Second reply."],
			["Three", "Third reply."],
		] as const) {
			panel.send(message);
			panel.session().reply([reply]);
		}
		const click = (text: string, action: "rewind" | "fork"): void => {
			const row = panel.rows().find((candidate) => candidate.findAll("ccb-agent-user-text")[0]?.text === text);
			const button = row?.findAll(`ccb-agent-${action}`)[0];
			if (!button) throw new Error(`no ${action} on "${text}"`);
			button.dispatch("click");
		};
		return { ...panel, click };
	}

	const confirmation = (): Promise<Modal> =>
		pollUntil(() => Modal.opened[Modal.opened.length - 1], "the rewind's question");
	const words = (modal: Modal): string[] =>
		(modal.contentEl as unknown as FakeElement).children.filter((child) => child.tag === "p").map((p) => p.text);
	const press = (modal: Modal, cls: string): void =>
		(modal.contentEl as unknown as FakeElement).findAll(cls)[0]?.dispatch("click");

	it("Rewind here asks first, saying what it restores; then restores the notes of that turn and after, and goes on from before the message with its text back in the box", async () => {
		const { engine, click, view, one } = await threeTurns();
		const original = engine.latest;
		const [, second, third] = original.messageIds;
		engine.notes!.found = { restore: ["Plan.md", "Drafts/Chapter 1.md"], review: [], left: [] };
		click("Two", "rewind");
		const modal = await confirmation();
		expect(words(modal)[0]).toBe("Restores 2 notes to how they were before this message: Plan, Chapter 1.");
		expect(engine.notes?.planned).toEqual([[second, third]]);
		expect(original.closed).toBe(false);
		press(modal, "ccb-rewind-confirm-yes");
		await pollUntil(() => (engine.sessions.length === 2 ? true : undefined), "the session going on");
		await pollUntil(() => (view.activeTab?.session === engine.latest ? true : undefined), "the rewound tab");
		expect(original.closed).toBe(true);
		expect(engine.notes?.restored).toEqual([[second, third]]);
		expect(engine.askedBefore).toEqual([`s-1/${second}`]);
		expect(engine.latest.options).toMatchObject({ resume: "s-1", resumeAt: `before ${second}` });
		expect(engine.latest.options.fork).toBeUndefined();
		expect(view.sessions).toHaveLength(1);
		expect(view.activeTab?.transcript.entries.map(entryText)).toEqual([
			"One",
			"First reply.",
			"Turn done: 1,200 tokens in, 80 out · $0.0123",
			"Rewound to before your message. Restored Plan, Chapter 1 to how they were then.",
		]);
		expect(one("ccb-agent-textarea").value).toBe("Two");
		expect(view.activeTab?.pendingResumeAt).toBe(`before ${second}`);
		// Restarted before a message was sent, the session still goes on from there, not from the CLI's last message.
		await view.restartActiveSession();
		expect(engine.latest.options).toMatchObject({ resume: "s-1", resumeAt: `before ${second}` });
		expect(view.activeTab?.transcript.entries.map(entryText).slice(0, 2)).toEqual(["One", "First reply."]);
	});

	it("Cancel leaves the conversation and the notes as they are; a rewind while Claude works is refused with the reason", async () => {
		const { engine, click, send, session, view } = await threeTurns();
		click("Two", "rewind");
		press(await confirmation(), "ccb-rewind-confirm-cancel");
		expect(Modal.opened).toEqual([]);
		send("Four");
		click("One", "rewind");
		expect(view.activeTab?.transcript.entries.at(-1)).toMatchObject({
			kind: "notice",
			text: "Claude is still working. Wait for the reply, or stop it, then rewind again.",
		});
		expect(Modal.opened).toEqual([]);
		expect(engine.notes?.restored).toEqual([]);
		expect(engine.sessions).toHaveLength(1);
		expect(session().closed).toBe(false);
		// A tab closed while its question was open is not rewound when the user then says yes.
		session().reply(["Four done."]);
		const closed = view.activeTab!;
		const two = closed.transcript.entries.find((entry) => entry.kind === "user" && entry.text === "Two");
		await view.newSession();
		await view.closeTab(closed);
		if (two?.kind !== "user" || two.messageId === undefined) throw new Error("no message Two");
		const yes = await view.rewindNow(closed, { ...two, messageId: two.messageId }, ["m"], engine.notes);
		expect(yes).toBeUndefined();
		expect(engine.notes?.restored).toEqual([]);
		expect(engine.sessions).toHaveLength(2);
	});

	it("a rewound conversation left before a message went on resumes later from where the rewind took it, until a message goes on", async () => {
		const { engine, click, view, send, rewindPoints } = await threeTurns();
		const [, second] = engine.latest.messageIds;
		click("Two", "rewind");
		press(await confirmation(), "ccb-rewind-confirm-yes");
		await pollUntil(() => (view.activeTab?.session === engine.sessions[1] ? true : undefined), "the rewound tab");
		expect(rewindPoints.get("s-1")).toBe(`before ${second}`);
		await view.closeTab(view.activeTab!);
		await view.resume("s-1");
		expect(engine.historiesRead).toEqual([`s-1 up to before ${second}`]);
		expect(engine.latest.options).toMatchObject({ resume: "s-1", resumeAt: `before ${second}` });
		send("Two, differently");
		expect(rewindPoints.has("s-1")).toBe(false);
		await view.closeTab(view.activeTab!);
		await view.resume("s-1");
		expect(engine.historiesRead.at(-1)).toBe("s-1");
		expect(engine.latest.options.resumeAt).toBeUndefined();
	});

	it("rewinding to before the first message starts a new conversation", async () => {
		const { engine, click } = await threeTurns();
		engine.notes = undefined;
		click("One", "rewind");
		const modal = await confirmation();
		expect(words(modal)[0]).toMatch(/^Notes are not restored: the activity journal is off/);
		press(modal, "ccb-rewind-confirm-yes");
		await pollUntil(() => (engine.sessions.length === 2 ? true : undefined), "the new conversation");
		expect(engine.latest.options.resume).toBeUndefined();
		expect(engine.latest.options.resumeAt).toBeUndefined();
	});

	it("a rewound message's images are back in the box with its text; a past session's, whose images were not kept, are named with what to do", async () => {
		const panel = await openPanel((engine) => {
			engine.past = [{ sessionId: "old", firstLine: "Describe it", updatedAt: "2026-11-20T09:00:00Z" }];
			engine.histories.set("old", [
				{
					kind: "user-message",
					message: { text: "Describe it", attachments: [], images: [{ name: "Image 1" }] },
					id: "u-old",
				},
				{ kind: "text-delta", blockId: "x", text: "A cat on a mat." },
				{ kind: "turn-end", outcome: "done", usage: {} },
			]);
		});
		const { engine, view, root, one } = panel;
		panel.session().emit({ kind: "ready", sessionId: "s-1", slashCommands: [] });
		view.activeTab?.send("Look at this", [], [{ name: "diagram.png", bytes: TINY_PNG }]);
		panel.session().reply(["A diagram."]);
		panel.send("Shorter");
		panel.session().reply(["Short."]);
		const rewindOn = (text: string): void => {
			const row = panel.rows().find((candidate) => candidate.findAll("ccb-agent-user-text")[0]?.text === text);
			row?.findAll("ccb-agent-rewind")[0]?.dispatch("click");
		};
		rewindOn("Look at this");
		press(await confirmation(), "ccb-rewind-confirm-yes");
		await pollUntil(() => (engine.sessions.length === 2 ? true : undefined), "the rewound session");
		await pollUntil(() => (view.activeTab?.session === engine.latest ? true : undefined), "the rewound tab");
		expect(one("ccb-agent-textarea").value).toBe("Look at this");
		expect(view.activeTab?.input.images.take()).toEqual([{ name: "diagram.png", bytes: TINY_PNG }]);

		root.findAll("ccb-agent-history-button")[0]?.dispatch("click");
		(await pollUntil(() => root.findAll("ccb-agent-history-row")[0], "the past session"))?.dispatch("click");
		await pollUntil(() => (engine.sessions.length === 3 ? true : undefined), "the resumed session");
		rewindOn("Describe it");
		press(await confirmation(), "ccb-rewind-confirm-yes");
		await pollUntil(() => (engine.sessions.length === 4 ? true : undefined), "the rewound past session");
		await pollUntil(() => (view.activeTab?.session === engine.latest ? true : undefined), "its tab");
		expect(one("ccb-agent-textarea").value).toBe("Describe it");
		expect(view.activeTab?.input.images.names).toEqual([]);
		expect(view.activeTab?.transcript.entries.at(-1)).toMatchObject({
			kind: "notice",
			text: "The image sent with it (“Image 1”) is not back in the message box: the panel keeps images only while their session is open. Add it again to send it.",
		});
	});

	it("Fork from here opens a new tab with the conversation through that turn; the original tab and session go on untouched", async () => {
		const { engine, click, view } = await threeTurns();
		const original = engine.latest;
		const originalTab = view.activeTab;
		const [first, second] = original.messageIds;
		click("One", "fork");
		await pollUntil(() => (engine.sessions.length === 2 ? true : undefined), "the fork");
		expect(engine.latest.options).toMatchObject({ resume: "s-1", fork: true, resumeAt: `before ${second}` });
		expect(view.sessions).toHaveLength(2);
		expect(view.activeTab?.displayTitle).toBe("Fork: One");
		expect(view.activeTab?.transcript.entries.map(entryText)).toEqual([
			"One",
			"First reply.",
			"Turn done: 1,200 tokens in, 80 out · $0.0123",
		]);
		expect(view.activeTab?.transcript.entries[0]).toMatchObject({ messageId: first });
		expect(original.closed).toBe(false);
		expect(originalTab?.transcript.entries.filter((entry) => entry.kind === "user")).toHaveLength(3);
		// Forking from the last turn copies the whole conversation: nothing to leave out.
		view.activate(originalTab!);
		click("Three", "fork");
		await pollUntil(() => (engine.sessions.length === 3 ? true : undefined), "the second fork");
		expect(engine.latest.options).toMatchObject({ resume: "s-1", fork: true });
		expect(engine.latest.options.resumeAt).toBeUndefined();
	});

	it("says so in the panel when the engine cannot be loaded", async () => {
		const app = new App("/vault", "Vault");
		const view = new AgentView(app.workspace.getLeaf("tab") as unknown as RealLeaf, {
			engine: () => Promise.reject(new Error("Claude Code was not found on this computer")),
			vault: new ObsidianPanelVault(app as never, () => undefined),
			panelSettings: () => DEFAULT_AGENT_PANEL_SETTINGS,
		});
		view.load();
		await view.onOpen();
		const message = (view.contentEl as unknown as FakeElement).findAll("ccb-agent-message")[0];
		expect(message?.hasClass("is-hidden")).toBe(false);
		expect(message?.text).toBe("Claude Code could not be loaded: Claude Code was not found on this computer");
		expect(view.sessions).toEqual([]);
	});
});
