/**
 * The agent panel's own memory with a long session (issue 18): the panel's view (src/obsidian/agent/agent-view.ts)
 * against the `obsidian` stub's element tree and a scripted engine (tests/helpers/fake-agent-engine.ts, as the view's
 * tests build it), with 1,000 questions and 1,000 streamed replies of realistic length, some with code blocks.
 * JS heap in use after a forced GC, before the view opens and after the session; the elements under the view.
 */
import type { WorkspaceLeaf as RealLeaf } from "obsidian";
import { AgentView, type AgentPanelHost } from "../src/obsidian/agent/agent-view";
import { ObsidianPanelVault } from "../src/obsidian/agent/panel-vault";
import { DEFAULT_AGENT_PANEL_SETTINGS } from "../src/settings";
import { App, type FakeElement } from "../tests/__mocks__/obsidian";
import { FakeAgentEngine } from "../tests/helpers/fake-agent-engine";

export interface PanelMemory {
	messages: number;
	/** Characters of message text in the session (questions and replies). */
	textChars: number;
	heapBeforeMiB: number;
	heapAfterMiB: number;
	elements: number;
}

const MIB = 1024 * 1024;
/** Replies arrive in deltas of about this many characters, as the CLI streams them. */
const DELTA_CHARS = 80;

function collectedHeapMiB(): number {
	const collect = (globalThis as { gc?: () => void }).gc;
	if (!collect) throw new Error("Run with node --expose-gc (scripts/run-bench.mjs does).");
	collect();
	collect();
	return process.memoryUsage().heapUsed / MIB;
}

function question(turn: number): string {
	return `Turn ${turn}: can you look at [[Projects/Chapter ${turn % 40}]] and tell me whether the outline still matches what the second section promises? Keep it short.`;
}

/** 610–770 characters of Markdown; every fourth reply has a code block. */
function reply(turn: number): string {
	const paragraph = `The outline of chapter ${turn % 40} lists **${(turn % 7) + 3} scenes**, and the second section promises a turn in the middle that the current draft only hints at. `;
	const list = [
		"- the opening scene sets up the letter",
		"- the market scene repeats the argument from chapter 2",
		`- scene ${(turn % 5) + 1} has no clear goal yet`,
	].join("\n");
	const code =
		turn % 4 === 0
			? `\n\n\`\`\`ts\nconst scenes = outline.filter((scene) => scene.chapter === ${turn % 40});\nfor (const scene of scenes) console.log(scene.title, scene.goal ?? "no goal");\n\`\`\`\n`
			: "\n\n";
	return `${paragraph.repeat(3)}\n\n${list}${code}I would tighten the middle first, then check the ending against [[Outline]].`;
}

function deltas(text: string): string[] {
	const parts: string[] = [];
	for (let start = 0; start < text.length; start += DELTA_CHARS) parts.push(text.slice(start, start + DELTA_CHARS));
	return parts;
}

const countElements = (element: FakeElement): number =>
	element.children.reduce((sum, child) => sum + 1 + countElements(child), 0);

export async function measurePanelMemory(turns = 1000): Promise<PanelMemory> {
	const heapBeforeMiB = collectedHeapMiB();
	const app = new App("/vault", "Vault");
	const engine = new FakeAgentEngine();
	const host: AgentPanelHost = {
		engine: () => Promise.resolve(engine),
		vault: new ObsidianPanelVault(app as never, () => ({ hidesPath: () => false, hidesFolder: () => false })),
		panelSettings: () => ({ ...DEFAULT_AGENT_PANEL_SETTINGS }),
	};
	const view = new AgentView(app.workspace.getLeaf("tab") as unknown as RealLeaf, host);
	view.load();
	await view.onOpen();
	const root = view.contentEl as unknown as FakeElement;
	let textChars = 0;
	for (let turn = 0; turn < turns; turn++) {
		const box = root.findAll("ccb-agent-textarea")[0];
		if (!box) throw new Error("the panel has no input box");
		const asked = question(turn);
		box.value = asked;
		box.dispatch("input");
		box.dispatch("keydown", { key: "Enter", shiftKey: false });
		const answer = reply(turn);
		engine.latest.reply(deltas(answer), `b${turn}`);
		textChars += asked.length + answer.length;
	}
	const messages =
		view.activeTab?.transcript.entries.filter((entry) => entry.kind === "user" || entry.kind === "assistant")
			.length ?? 0;
	if (messages !== turns * 2) throw new Error(`the transcript holds ${messages} messages, not ${turns * 2}`);
	const heapAfterMiB = collectedHeapMiB();
	const elements = countElements(root);
	await view.onClose();
	view.unload();
	return { messages, textChars, heapBeforeMiB, heapAfterMiB, elements };
}
