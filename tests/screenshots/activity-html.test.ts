/**
 * The activity view's page of `npm run screenshots` (scripts/screenshots/activity-html.ts), without Chromium: from
 * the built main.js it renders two conversations in the writer's words, with nothing that changes between runs.
 */
import { resolve } from "node:path";
import { renderActivity, type ActivityHtml } from "../../scripts/screenshots/activity-html";
import { pageHtml } from "../../scripts/screenshots/page";
import type { App, Plugin } from "../__mocks__/obsidian";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

const repository = resolve(__dirname, "../..");

describe("the screenshots' activity page", () => {
	let page: ActivityHtml;

	beforeAll(async () => {
		page = await renderActivity(mainPlugin());
	}, FIXTURE_TIMEOUT_MS);

	it("renders two conversations from main.js, titled and placed in words, the automatic calls folded", () => {
		const { html } = page;
		expect(page.title).toBe("Claude activity");
		expect(html).toContain(
			`class="ccb-activity-conversation-title">Tighten the opening of On walking and link it from the index<`,
		);
		expect(html).toContain(`class="ccb-activity-conversation-meta">In the panel · 09:30 · 8 calls<`);
		expect(html).toContain(`class="ccb-activity-conversation-title">Edits to Lisbon at 09:12<`);
		expect(html).toContain(`class="ccb-activity-conversation-meta">From the terminal · 09:12 · 13 calls<`);
		expect(html).toMatch(
			/<button class="ccb-activity-row ccb-activity-automatic" aria-expanded="false"[^>]*>10 automatic calls</,
		);
		expect(html).toContain(`Proposed a change to <span class="ccb-activity-note-name">Lisbon</span>`);
		expect(html).toContain(`class="ccb-activity-outcome">Rejected change<`);
		expect(html).toContain(`class="ccb-activity-outcome">Accepted change<`);
		// The rows speak no wire: no tool names, no session keys, no paths.
		const list = html.slice(
			html.indexOf(`class="ccb-activity-window"`),
			html.indexOf(`class="ccb-activity-details"`),
		);
		for (const wire of ["getDiagnostics", "openDiff", "claude-code", "read_note", "Essays/", "/home/"])
			expect(list).not.toContain(wire);
		expect(html).not.toMatch(/\/tmp\//);
	});

	it("shows the chosen edit's details with its diff, its note as a link and Undo; the list's height as a browser sets it", () => {
		const { html } = page;
		expect(html).toContain(`<h4>Edited On walking</h4>`);
		expect(html).toContain(`class="ccb-diff`);
		expect(html).toContain(`>Undo</button>`);
		expect(html).toContain(`aria-label="Open Essays/On walking.md"`);
		expect(html).toMatch(/class="ccb-activity-sizer" style="--ccb-activity-height: \d+px"/);
	});

	it(
		"is the same on a second run",
		async () => {
			expect(await renderActivity(mainPlugin())).toEqual(page);
		},
		FIXTURE_TIMEOUT_MS,
	);

	it("is framed as a leaf with its title", () => {
		expect(pageHtml("activity", page.html, "light", repository, page.title)).toContain(
			`<div class="view-header">Claude activity</div>`,
		);
	});
});

/** The plugin class the built main.js exports, its `obsidian` being the tests' stand-in (jest.config.js maps it). */
function mainPlugin(): new (app: App, manifest: object) => Plugin {
	return jest.requireActual<{ default: new (app: App, manifest: object) => Plugin }>(resolve(repository, "main.js"))
		.default;
}
