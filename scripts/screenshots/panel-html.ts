/**
 * The panel's part of `npm run screenshots`: loads the built main.js with the tests' `obsidian` stand-in, points its
 * "Claude Code executable" at a scripted Claude Code (scripted-claude.ts), opens the "Claude Code" panel next to an
 * essay and holds a conversation through the panel's own message box: Claude reads the essay and proposes an edit,
 * which the plugin's gate sends to the review (the picture of the card waiting), the user accepts it in the review
 * view, and Claude then asks to run a shell command (the picture of the card waiting for an answer). Whatever
 * changes between runs (the temp folder, the port) is replaced by fixed values.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readFileSync } from "node:fs";
import { App, type FakeElement, type MetadataCache, type Plugin } from "../../tests/__mocks__/obsidian";
import { BrowserWindows } from "../../tests/obsidian/harness/cm6-dom";
import { parseNoteForCache } from "../../tests/obsidian/harness/metadata-parser";
import { makeTempDir } from "../../tests/helpers/temp-dir";
import { pollUntil } from "../../tests/helpers/wait-until";
import type { Theme } from "./page";
import { startScriptedClaude, type ScriptedTurn } from "./scripted-claude";
import { serialize } from "./views-html";

const SHOWN_VAULT = "/home/you/Notes";
const PANEL_VIEW = "claude-code-agent";
const REVIEW_VIEW = "claude-code-diff";
/** Where a session's `claude` comes from: the device setting "Claude Code executable" (DeviceAgentSettings). */
const CLI_PATH_KEY = "claude-code-bridge-claude-path";

export const ESSAY_PATH = "Essays/On walking.md";
const OPENING =
	"I walk every morning. Every morning I go for a walk, before the house wakes up, and it is the only hour of the day that belongs to me.";
const TIGHTER =
	"Every morning, before the house wakes up, I go for a walk: the only hour of the day that belongs to me.";

/** The notes of the pictured vault. */
export const PANEL_NOTES: Readonly<Record<string, string>> = {
	[ESSAY_PATH]: `# On walking

${OPENING}

The best walks have no plan. I leave the phone at home and let the streets decide: left at the bakery, right where the lime trees are, down to the river if the light is good.

Somewhere around the second bridge the sentences I could not write at my desk start to arrive, one at a time, in the rhythm of my steps.
`,
	"Essays/On rereading.md": `# On rereading

The books I love best are the ones I have read three times.
`,
};

/** What the user types in the panel, one message per turn. */
export const PANEL_MESSAGES = [
	"Tighten the opening paragraph: it says the same thing twice.",
	"How long are my essays now?",
];

/** Claude's side of the conversation. */
export const PANEL_TURNS: readonly ScriptedTurn[] = [
	{
		messages: [
			{ text: "I'll read the essay first.", tool: { name: "Read", input: { file_path: ESSAY_PATH } } },
			{
				text: "The first two sentences say the same thing. I'll fold them into one and keep the rest of the paragraph as it is.",
				tool: { name: "Edit", input: { file_path: ESSAY_PATH, old_string: OPENING, new_string: TIGHTER } },
			},
			{ text: `Done. The essay now opens with:\n\n> ${TIGHTER}` },
		],
		usage: { inputTokens: 8412, outputTokens: 236, costUsd: 0.0421, durationMs: 14_200 },
	},
	{
		messages: [
			{
				text: "I'll count the words in each essay.",
				tool: {
					name: "Bash",
					input: { command: "wc -w Essays/*.md", description: "Count the words in each essay" },
					output: "  86 Essays/On walking.md\n  18 Essays/On rereading.md\n 104 total",
				},
			},
			{ text: "*On walking* has 86 words and *On rereading* 18." },
		],
		usage: { inputTokens: 9120, outputTokens: 98, costUsd: 0.0187, durationMs: 6_300 },
	},
];

export interface PanelHtml {
	/** The panel as it opens next to the essay: no message yet. */
	empty: string;
	/** Claude's edit waits for the user's review. */
	reviewing: string;
	/** The edit accepted, and a shell command waiting for the user's answer. */
	conversation: string;
}

type PluginClass = new (app: App, manifest: object) => Plugin & { settingsHost?: unknown };

/** Holds the conversation in the panel of the plugin main.js exports, and returns the panel at three moments as HTML. */
export async function renderPanel(MainPlugin: PluginClass): Promise<PanelHtml> {
	const temp = makeTempDir("panel-screenshots");
	const home = join(temp.path, "home");
	const bin = join(temp.path, "bin");
	const vault = join(temp.path, "Notes");
	mkdirSync(home);
	mkdirSync(bin);
	for (const [path, text] of Object.entries(PANEL_NOTES)) {
		mkdirSync(dirname(join(vault, path)), { recursive: true });
		writeFileSync(join(vault, path), text);
	}
	// Claude Code's shell sandbox on Linux needs bubblewrap and socat on PATH; the panel only looks for them (nothing
	// runs them here), so the permission card reads the same on every machine: with the sandbox on.
	for (const program of ["bwrap", "socat"]) writeFileSync(join(bin, program), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
	const saved = { HOME: process.env.HOME, PATH: process.env.PATH };
	process.env.HOME = home;
	process.env.PATH = `${bin}:${process.env.PATH ?? ""}`;
	const claude = await startScriptedClaude(bin, PANEL_TURNS);
	// The essay opens in an editor, which the plugin follows (its selection, the panel's note chip): CodeMirror needs a DOM.
	const windows = BrowserWindows.install();
	const app = new App(vault, "Notes");
	app.metadataCache.attach(app.vault as unknown as Parameters<MetadataCache["attach"]>[0], parseNoteForCache);
	for (const [path, text] of Object.entries(PANEL_NOTES)) app.vault.writeExternally(path, text);
	await app.metadataCache.parsePending();
	app.saveLocalStorage(CLI_PATH_KEY, claude.path);
	const plugin = new MainPlugin(app, { id: "claude-code-bridge", name: "Claude Code Bridge", version: "0.1.0" });
	const sessions: { close(): Promise<void> }[] = [];
	try {
		plugin.load();
		await pollUntil(() => plugin.settingsHost, "the plugin to load its settings");
		app.workspace.finishLayout();
		app.workspace.flushEvents();
		await pollUntil(
			() => (/ready|connected/i.test(plugin.statusBarItems[0]?.text ?? "") ? true : undefined),
			"the bridge to start",
		);
		const essay = app.vault.getFileByPath(ESSAY_PATH);
		if (!essay) throw new Error(`no ${ESSAY_PATH} in the vault`);
		await app.workspace.getLeaf(false).openFile(essay, { active: true });
		(plugin as unknown as { runCommand(id: string): boolean }).runCommand("open-agent-panel");
		const leaf = await pollUntil(() => app.workspace.getLeavesOfType(PANEL_VIEW)[0], "the panel");
		const view = leaf.view as unknown as {
			contentEl: FakeElement;
			sessions: readonly { session: { close(): Promise<void> } }[];
		};
		const panel = view.contentEl;
		const html = (): string =>
			serialize(panel, new Map())
				.replaceAll(vault, SHOWN_VAULT)
				.replaceAll(home, "/home/you")
				.replaceAll(bin, "/usr/local/bin");
		const find = (cls: string, text?: string): FakeElement | undefined =>
			panel.findAll(cls).find((element) => text === undefined || element.textContent.includes(text));
		// The models arrive with the CLI's answer to `initialize`, before any message.
		await pollUntil(
			() => find("ccb-agent-model", "Default (recommended)"),
			() => `the models Claude Code offers (the panel reads: ${panel.textContent})`,
		);
		sessions.push(...view.sessions.map((tab) => tab.session));
		const empty = html();

		const send = (text: string): void => {
			const box = find("ccb-agent-textarea");
			if (!box) throw new Error("the panel has no message box");
			box.value = text;
			find("ccb-agent-send")?.dispatch("click");
		};
		send(PANEL_MESSAGES[0] ?? "");
		await pollUntil(() => find("ccb-agent-open-review"), "the edit's card waiting for the review");
		const reviewing = html();

		const review = await pollUntil(
			() =>
				(
					app.workspace.getLeavesOfType(REVIEW_VIEW)[0]?.view as { contentEl?: FakeElement } | undefined
				)?.contentEl?.findAll("ccb-review-accept")[0],
			"the review view",
		);
		review.dispatch("click");
		await pollUntil(() => find("ccb-agent-usage"), "the end of the first turn");
		send(PANEL_MESSAGES[1] ?? "");
		await pollUntil(() => find("ccb-agent-permission-status"), "the shell command's question");
		const conversation = html();
		return { empty, reviewing, conversation };
	} finally {
		app.workspace.detachLeavesOfType(PANEL_VIEW);
		await Promise.all(sessions.map((session) => session.close()));
		plugin.unload();
		await claude.close();
		windows.uninstall();
		process.env.HOME = saved.HOME;
		process.env.PATH = saved.PATH;
		temp.remove();
	}
}

/** A page of the panel in one theme: the panel fills a sidebar leaf, its conversation scrolled to the end as it shows. */
export function panelPageHtml(fragment: string, theme: Theme, repository: string): string {
	const css = ["scripts/screenshots/obsidian-theme.css", "scripts/screenshots/panel-theme.css", "styles.css"].map(
		(path) => `<style>${readFileSync(join(repository, path), "utf8")}</style>`,
	);
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>panel (${theme})</title>
${css.join("\n")}
</head><body class="theme-${theme}"><div class="workspace-leaf ccb-screenshot-sidebar"><div class="view-header">Claude Code</div><div class="view-content">${fragment}</div></div>
<script>for (const list of document.querySelectorAll(".ccb-agent-scroll")) list.scrollTop = list.scrollHeight;</script>
</body></html>
`;
}
