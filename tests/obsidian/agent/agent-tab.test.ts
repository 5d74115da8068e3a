import { AgentTab } from "../../../src/obsidian/agent/agent-tab";
import { ObsidianPanelVault } from "../../../src/obsidian/agent/panel-vault";
import { FakeElement, type App } from "../../__mocks__/obsidian";
import { FakeAgentSession } from "../../helpers/fake-agent-engine";
import { createIndexedApp } from "../harness/indexed-app";

async function tabOver(
	session = new FakeAgentSession({ permissionMode: "default" }),
): Promise<{ app: App; tab: AgentTab; session: FakeAgentSession; parent: FakeElement }> {
	const app = await createIndexedApp({ "Notes/Plan.md": "# Plan\n", "Notes/Other.md": "# Other\n" });
	app.workspace.finishLayout();
	const parent = new FakeElement();
	let titles = 0;
	const tab = new AgentTab(parent as unknown as HTMLElement, {
		app: app as never,
		session,
		vault: new ObsidianPanelVault(app as never, () => ({ hidesPath: () => false, hidesFolder: () => false })),
		permissionMode: "acceptEdits",
		model: "haiku",
		exportFolder: () => "Exports",
		onTitle: () => titles++,
		history: [
			{ kind: "user-message", message: { text: "Earlier question\nwith two lines", attachments: [] } },
			{ kind: "text-delta", blockId: "old", text: "An answer whose turn end the history did not keep" },
		],
	});
	tab.load();
	expect(titles).toBe(0);
	return { app, tab, session, parent };
}

describe("AgentTab", () => {
	it("starts from the session's history, titled by its first line, with the pickers set to the session's start", async () => {
		const { tab, parent } = await tabOver();
		expect(tab.displayTitle).toBe("Earlier question");
		expect(tab.transcript.entries.map((entry) => entry.kind)).toEqual(["user", "assistant"]);
		// A reply from the history is not shown as still streaming.
		expect(parent.findAll("ccb-agent-reply").map((reply) => reply.hasClass("is-streaming"))).toEqual([false]);
		expect(parent.findAll("ccb-agent-model")[0]?.value).toBe("haiku");
		expect(parent.findAll("ccb-agent-mode")[0]?.value).toBe("acceptEdits");
	});

	it("begins a rewound conversation with its earlier rows and the message back in the box, going on from where it was rewound until a message is sent", async () => {
		const app = await createIndexedApp({});
		const session = new FakeAgentSession({ permissionMode: "default", resume: "s-1", resumeAt: "r-1" });
		const tab = new AgentTab(new FakeElement() as unknown as HTMLElement, {
			app: app as never,
			session,
			vault: new ObsidianPanelVault(app as never, () => ({ hidesPath: () => false, hidesFolder: () => false })),
			permissionMode: "plan",
			model: "",
			exportFolder: () => "Exports",
			onTitle: () => undefined,
			earlier: [{ kind: "user", id: 9, text: "First", attachments: [], state: "sent", messageId: "m-1" }],
			draft: "Second, to send again",
			resumedAt: "r-1",
		});
		tab.load();
		expect(tab.transcript.entries).toEqual([
			{ kind: "user", id: 1, text: "First", attachments: [], state: "sent", messageId: "m-1" },
		]);
		expect(tab.input.textarea.value).toBe("Second, to send again");
		expect(tab.displayTitle).toBe("First");
		expect(tab.choices).toEqual({ model: "", permissionMode: "plan" });
		expect(tab.pendingResumeAt).toBe("r-1");
		tab.send("Second, changed", []);
		expect(tab.pendingResumeAt).toBeUndefined();
	});

	it("sends the active note once, with the mentions, as attachments", async () => {
		const { app, tab, session } = await tabOver();
		const file = app.vault.getFileByPath("Notes/Plan.md");
		if (!file) throw new Error("no note");
		await app.workspace.getLeaf(false).openFile(file, { active: true });
		app.workspace.flushEvents();
		tab.send("Compare @Notes/Plan.md and @Notes/Other.md", ["Notes/Plan.md", "Notes/Other.md"]);
		expect(session.sent).toEqual([
			{
				text: "Compare @Notes/Plan.md and @Notes/Other.md",
				attachments: [{ path: "Notes/Plan.md" }, { path: "Notes/Other.md" }],
			},
		]);
	});

	it("sends the images with the message, titled by the first one when there are no words", async () => {
		const session = new FakeAgentSession({ permissionMode: "default" });
		const app = await createIndexedApp({});
		const tab = new AgentTab(new FakeElement() as unknown as HTMLElement, {
			app: app as never,
			session,
			vault: new ObsidianPanelVault(app as never, () => ({ hidesPath: () => false, hidesFolder: () => false })),
			permissionMode: "default",
			model: "",
			exportFolder: () => "Exports",
			onTitle: () => undefined,
		});
		tab.load();
		const bytes = new Uint8Array([1, 2]);
		tab.send("", [], [{ name: "whiteboard.jpg", bytes }]);
		expect(session.sent).toEqual([{ text: "", attachments: [], images: [{ name: "whiteboard.jpg", bytes }] }]);
		expect(tab.displayTitle).toBe("whiteboard.jpg");
	});

	it("shows the permission mode the CLI moved to when a plan was approved", async () => {
		const session = new FakeAgentSession({ permissionMode: "plan" });
		const { parent } = await tabOver(session);
		const mode = parent.findAll("ccb-agent-mode")[0];
		session.emit({ kind: "permission-mode", mode: "default" });
		expect(mode?.value).toBe("default");
		// A mode the panel does not offer leaves the picker as it is.
		session.emit({ kind: "permission-mode", mode: "bypassPermissions" });
		expect(mode?.value).toBe("default");
	});

	it("shows a picker or Stop that fails as a line in the transcript", async () => {
		const session = new FakeAgentSession({ permissionMode: "default" });
		session.setModel = () => Promise.reject(new Error("unknown model"));
		session.interrupt = () => Promise.reject(new Error("the CLI is gone"));
		const { tab, parent } = await tabOver(session);
		const model = parent.findAll("ccb-agent-model")[0];
		model.value = "opus";
		model.dispatch("change");
		await tab.stop();
		await new Promise((resolve) => setImmediate(resolve));
		expect(
			tab.transcript.entries
				.filter((entry) => entry.kind === "notice")
				.map((entry) => (entry.kind === "notice" ? entry.text : "")),
		).toEqual(["unknown model", "the CLI is gone"]);
	});

	it("stops listening to its session once unloaded", async () => {
		const { tab, session } = await tabOver();
		expect(session.listenerCount).toBe(1);
		tab.unload();
		expect(session.listenerCount).toBe(0);
	});
});
