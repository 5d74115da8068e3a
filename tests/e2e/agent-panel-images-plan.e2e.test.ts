import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { WorkspaceLeaf as RealLeaf } from "obsidian";
import { MemoryPermissionRules } from "../../src/agent/gate/permission-rules";
import type { AgentPermissionMode } from "../../src/agent/agent-session";
import { MemoryJournalStore } from "../../src/journal/memory-journal-store";
import { createAgentEngine } from "../../src/obsidian/agent/agent-engine-runtime";
import { AgentView, type AgentPanelHost } from "../../src/obsidian/agent/agent-view";
import { ObsidianPanelVault } from "../../src/obsidian/agent/panel-vault";
import type { App, FakeElement } from "../__mocks__/obsidian";
import { createIndexedApp } from "../obsidian/harness/indexed-app";
import { startAssembledBridge } from "../helpers/assembled-bridge";
import { solidPng, TINY_PNG } from "../helpers/image-bytes";
import { pollUntil } from "../helpers/wait-until";
import { useBridgeSessions } from "./harness/bridge-session";
import { claudeBinaryPath } from "./harness/cli-binary";
import { headlessCliEnv, makeClaudeHome } from "./harness/claude-home";
import { lastUserText, messagesOf, requestText, type JsonObject } from "./harness/messages-request";
import type { MockAnthropic } from "./harness/mock-anthropic";
import { textTurn, toolUseTurn } from "./harness/sse-reply";

/**
 * The panel driven as a user drives it (the Obsidian stand-in's view, the message box, the cards' buttons) over the
 * engine the plugin builds, the pinned real CLI and the mock model API: pasted and embedded images reach the model
 * as image blocks, a private one never; a plan edited on its card is the plan the model is told was approved.
 */

const TURN_TIMEOUT_MS = 90_000;
const { startMock, onCleanup } = useBridgeSessions(240_000);

/** A red dot in the vault, a private face, and a note that embeds both. */
const PHOTO = solidPng(3, 3, [200, 30, 30]);
const FACE = solidPng(4, 4, [10, 200, 10]);
const NOTES: Record<string, string | Uint8Array> = {
	"Trips/Coast.md": "# Coast\n\n![[photo.png]]\n\n![[Private/face.png]]\n",
	"Trips/photo.png": PHOTO,
	"Private/face.png": FACE,
};

interface Panel {
	mock: MockAnthropic;
	app: App;
	view: AgentView;
	/** The first element of the active tab with this class (waits until there is one). */
	find: (cls: string) => Promise<FakeElement>;
	/** Resolves when the turn that is running now has ended (its usage line is in the transcript). */
	turnEnded: (turns: number) => Promise<void>;
}

async function openPanel(permissionMode: AgentPermissionMode): Promise<Panel> {
	const mock = await startMock();
	const bridge = await startAssembledBridge({
		journalStore: new MemoryJournalStore(),
		privacy: { folders: ["Private"] },
		populate: (vault) => {
			for (const [path, content] of Object.entries(NOTES)) {
				mkdirSync(dirname(join(vault, path)), { recursive: true });
				writeFileSync(join(vault, path), content);
			}
		},
	});
	onCleanup(() => bridge.stop());
	const home = makeClaudeHome([bridge.vaultPath]);
	onCleanup(() => home.remove());
	// Obsidian's view of the same folder: the notes it indexed (an image's text stands in for its bytes).
	const app = await createIndexedApp(
		Object.fromEntries(
			Object.entries(NOTES).map(([path, content]) => [path, typeof content === "string" ? content : "image"]),
		),
		bridge.vaultPath,
	);
	app.workspace.finishLayout();
	const engine = createAgentEngine({
		vaultPath: bridge.vaultPath,
		cliPath: () => claudeBinaryPath(),
		bridge: () => bridge.bridge,
		rules: new MemoryPermissionRules(),
		env: headlessCliEnv(home.path, mock.baseUrl),
	});
	const host: AgentPanelHost = {
		engine: () => Promise.resolve(engine),
		vault: new ObsidianPanelVault(app as never, () => bridge.bridge.privacy),
		panelSettings: () => ({ model: "", permissionMode, exportFolder: "Chats" }),
	};
	const view = new AgentView(app.workspace.getLeaf("tab") as unknown as RealLeaf, host);
	view.load();
	await view.onOpen();
	onCleanup(() => view.onClose());
	const root = view.contentEl as unknown as FakeElement;
	const activeTab = (): FakeElement | undefined =>
		root.findAll("ccb-agent-tab").find((tab) => !tab.hasClass("is-hidden"));
	return {
		mock,
		app,
		view,
		find: (cls) =>
			pollUntil(() => activeTab()?.findAll(cls)[0], `an element .${cls} in the panel`, {
				timeoutMs: TURN_TIMEOUT_MS,
				intervalMs: 20,
			}),
		turnEnded: (turns) =>
			pollUntil(
				() =>
					(view.activeTab?.transcript.entries.filter((entry) => entry.kind === "usage").length ?? 0) >= turns
						? true
						: undefined,
				() =>
					`turn ${turns} to end (transcript: ${view.activeTab?.transcript.entries.map((entry) => entry.kind).join(", ")})`,
				{ timeoutMs: TURN_TIMEOUT_MS, intervalMs: 50 },
			).then(() => undefined),
	};
}

/** The image blocks of the last user message of a request, as the model receives them. */
function imagesOf(body: JsonObject): { media_type: unknown; data: unknown }[] {
	const lastUser = messagesOf(body)
		.filter((message) => message["role"] === "user" && Array.isArray(message["content"]))
		.filter((message) => (message["content"] as JsonObject[]).some((block) => block["type"] === "image"))
		.pop();
	return ((lastUser?.["content"] ?? []) as JsonObject[])
		.filter((block) => block["type"] === "image")
		.map((block) => {
			const source = block["source"] as JsonObject;
			return { media_type: source["media_type"], data: source["data"] };
		});
}

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64");

describe("the agent panel with the real CLI: images and plans", () => {
	it("a pasted image and an image embedded in the active note reach the model as image blocks; a private one is refused with the reason and never sent", async () => {
		const { mock, app, view, find, turnEnded } = await openPanel("default");
		mock.enqueue(textTurn("A grey square and a red dot."));
		const note = app.vault.getFileByPath("Trips/Coast.md");
		if (!note) throw new Error("no note");
		await app.workspace.getLeaf("tab").openFile(note, { active: true });
		app.workspace.flushEvents();
		view.activeTab?.chip.refresh();
		(await find("ccb-agent-context-images")).dispatch("click");
		expect((await find("ccb-agent-input-problem")).text).toContain("“face.png” is in a private place");
		const textarea = await find("ccb-agent-textarea");
		textarea.dispatch("paste", {
			clipboardData: { files: [new File([TINY_PNG], "Screenshot.png")] },
			preventDefault: () => undefined,
		});
		const tray = view.activeTab?.input.images;
		await pollUntil(() => (tray?.names.length === 2 ? true : undefined), "both images' chips");
		expect(tray?.names).toEqual(["photo.png", "Screenshot.png"]);
		textarea.value = "What is in these pictures?";
		textarea.dispatch("keydown", { key: "Enter", shiftKey: false, preventDefault: () => undefined });
		await turnEnded(1);
		const [request] = mock.mainRequests;
		expect(request).toBeDefined();
		expect(imagesOf(request?.body ?? {})).toEqual([
			{ media_type: "image/png", data: base64(PHOTO) },
			{ media_type: "image/png", data: base64(TINY_PNG) },
		]);
		expect(lastUserText(request?.body ?? {})).toContain("What is in these pictures?");
		expect(requestText(request?.body ?? {})).not.toContain(base64(FACE));
		expect(JSON.stringify(request?.body)).not.toContain(base64(FACE));
		const sent = view.activeTab?.transcript.entries.find((entry) => entry.kind === "user");
		expect(sent).toMatchObject({ images: ["photo.png", "Screenshot.png"] });
	});

	it("a plan shown as prose on its card, edited there and approved, is the plan the model is told to follow", async () => {
		const { mock, find, turnEnded } = await openPanel("plan");
		const planned = "# Chapter two\n\n1. Write the opening scene.\n2. End on the lighthouse.";
		const edited =
			"# Chapter two\n\n1. Write the opening scene at night.\n2. End on the lighthouse.\n3. Read it aloud.";
		let planFile = "";
		mock.enqueue(
			// The CLI names the session's plan file in plan mode's instructions; Claude writes its plan there.
			(body) => {
				planFile = /[^"\s\\]*\/plans\/[^"\s\\]+\.md/.exec(requestText(body))?.[0] ?? "no plan file named";
				return toolUseTurn("Write", { file_path: planFile, content: planned });
			},
			toolUseTurn("ExitPlanMode", {}),
			textTurn("Following your plan."),
		);
		const textarea = await find("ccb-agent-textarea");
		textarea.value = "Plan the next chapter";
		textarea.dispatch("keydown", { key: "Enter", shiftKey: false, preventDefault: () => undefined });
		const plan = await find("ccb-agent-plan");
		expect(plan.children.map((child) => child.tag)).toEqual(["h1", "ol"]);
		expect(plan.textContent).toContain("End on the lighthouse.");
		(await find("ccb-agent-edit-plan")).dispatch("click");
		const editor = await find("ccb-agent-plan-editor");
		expect(editor.value).toBe(planned);
		editor.value = edited;
		editor.dispatch("input");
		(await find("ccb-agent-approve-plan")).dispatch("click");
		await turnEnded(1);
		const approval = mock.mainRequests[2];
		expect(lastUserText(approval?.body ?? {})).toContain(`## Approved Plan (edited by user):\n${edited}`);
		expect(readFileSync(planFile, "utf8")).toBe(edited);
		// The CLI left plan mode: the picker says so.
		expect((await find("ccb-agent-mode")).value).toBe("default");
		expect((await find("ccb-agent-permission-outcome")).textContent).toContain("Plan approved with your changes");
	});
});
