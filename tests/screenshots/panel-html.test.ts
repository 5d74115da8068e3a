/**
 * The panel's HTML step of `npm run screenshots` (scripts/screenshots/panel-html.ts), without Chromium: from the
 * built main.js and a scripted Claude Code, the panel empty, with an edit waiting for the review, and with the edit
 * accepted and a shell command waiting for an answer; in the writer's words, with nothing that changes between runs.
 */
import { resolve } from "node:path";
import type { App, Plugin } from "../__mocks__/obsidian";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";
import { PANEL_MESSAGES, panelPageHtml, renderPanel, type PanelHtml } from "../../scripts/screenshots/panel-html";

const repository = resolve(__dirname, "../..");

describe("the screenshots' HTML step for the Claude Code panel", () => {
	let panel: PanelHtml;

	beforeAll(async () => {
		panel = await renderPanel(mainPlugin());
	}, FIXTURE_TIMEOUT_MS);

	it("renders the empty panel: the essay attached, the models Claude Code offers, the message box with Send", () => {
		const { empty } = panel;
		expect(empty).toContain(`class="ccb-agent-context-label">Essays/On walking.md<`);
		expect(empty).toContain(">Default (recommended)</option>");
		expect(empty).toContain(">Ask Claude about your notes.<");
		expect(empty).toContain(">Send</button>");
		expect(empty).not.toContain("ccb-agent-row");
	});

	it("renders the edit waiting for the review: streamed text, the read as a sentence naming the note, Open review", () => {
		const { reviewing } = panel;
		expect(reviewing).toContain(`>${PANEL_MESSAGES[0]}<`);
		expect(reviewing).toContain("<p>I'll read the essay first.</p>");
		expect(reviewing).toMatch(/class="ccb-agent-tool-summary">Read <a [^>]*>On walking<\/a>/);
		expect(reviewing).toContain(`class="ccb-agent-tool-status">Waiting for your review<`);
		expect(reviewing).toMatch(/class="ccb-agent-tool-summary">Edit <a [^>]*>On walking<\/a>/);
		expect(reviewing).toContain(">Open review</button>");
	});

	it("renders the edit decided and the shell command waiting for an answer, with Claude's description of it", () => {
		const { conversation } = panel;
		expect(conversation).toMatch(/Edited <a [^>]*>On walking<\/a>/);
		expect(conversation).toContain(`class="ccb-agent-status">Model: Sonnet 4.5<`);
		expect(conversation).toContain(`class="ccb-agent-tool-decision">Accepted<`);
		expect(conversation).not.toContain("Waiting for your review");
		expect(conversation).toContain(`class="ccb-agent-permission-status">Waiting for your answer<`);
		expect(conversation).toContain(
			`class="ccb-agent-tool-status">Waiting for your answer</span><span class="ccb-agent-tool-summary">Run a shell command (Count the words in each essay)<`,
		);
		expect(conversation).toContain("Claude wants to run a shell command: Count the words in each essay");
		expect(conversation).toContain(">wc -w Essays/*.md</pre>");
		expect(conversation).toContain(">Allow once</button>");
	});

	it("shows no wire words, temp paths or ids in any of them", () => {
		for (const html of Object.values(panel)) {
			expect(html).not.toMatch(/\/tmp\/|ccb-panel-screenshots/);
			expect(html).not.toMatch(/mcp__|toolu_|msg_scripted|hook error|PreToolUse/);
			expect(html).not.toContain("#text");
		}
	});

	it(
		"is the same on a second run",
		async () => {
			expect(await renderPanel(mainPlugin())).toEqual(panel);
		},
		FIXTURE_TIMEOUT_MS,
	);

	it("wraps the panel in a sidebar page with the theme, styles.css, and the conversation scrolled to its end", () => {
		const page = panelPageHtml(panel.conversation, "dark", repository);
		expect(page).toContain(`<body class="theme-dark">`);
		expect(page).toContain(".ccb-agent-permission");
		expect(page).toContain(panel.conversation);
		expect(page).toContain("scrollTop = list.scrollHeight");
	});
});

/** The plugin class the built main.js exports, its `obsidian` being the tests' stand-in (jest.config.js maps it). */
function mainPlugin(): new (app: App, manifest: object) => Plugin & { settingsHost?: unknown } {
	return jest.requireActual<{ default: new (app: App, manifest: object) => Plugin & { settingsHost?: unknown } }>(
		resolve(repository, "main.js"),
	).default;
}
