/**
 * The HTML step of `npm run screenshots` (scripts/screenshots.mjs), without Chromium: from the built main.js it
 * renders the review view of a proposal on a prose note and the settings tab, with nothing that changes between
 * runs and no token in them.
 */
import { resolve } from "node:path";
import { pageHtml } from "../../scripts/screenshots/page";
import type { App, Plugin } from "../__mocks__/obsidian";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";
import { FIXED_TIME, renderViews, type ViewsHtml } from "../../scripts/screenshots/views-html";

const repository = resolve(__dirname, "../..");

describe("the screenshots' HTML step", () => {
	let views: ViewsHtml;

	beforeAll(async () => {
		views = await renderViews(mainPlugin());
	}, FIXTURE_TIMEOUT_MS);

	it("renders the review view from main.js: the decision bar with the proposer and a fixed time, suggestions (the first accepted), a fold", () => {
		const { review } = views;
		expect(views.reviewTitle).toBe("Review: Lisbon.md");
		expect(review).toContain(`class="ccb-review-proposer">Claude Code in the terminal proposes a change to<`);
		expect(review).toContain(`<time class="ccb-review-time" datetime="${FIXED_TIME.toISOString()}">09:41</time>`);
		expect(review).toContain(`class="ccb-review-summary">8 changes, 1 accepted<`);
		expect(review).toMatch(
			/class="ccb-suggest-change is-accepted"[^>]*aria-label="Change 1 of 8: 'airport', accepted"/,
		);
		expect(review).toContain(`<span class="ccb-suggest-status-text">Accepted</span>`);
		expect(review).toContain(`aria-label="Accept: 'Rossio' for 'the'"`);
		expect(review).toContain(`class="mod-cta ccb-review-accept"`);
		expect(review).toContain(`class="ccb-suggest-added"`);
		expect(review).toContain(`class="ccb-suggest-removed"`);
		expect(review).toMatch(/class="ccb-suggest-fold"[^>]*>[^<]*unchanged/);
	});

	it("renders the settings tab from main.js with its controls, the temp paths and the port replaced", () => {
		const { settings } = views;
		expect(settings).toContain(`<div class="setting-item-name">Let Claude Code connect</div>`);
		expect(settings).toMatch(/<div class="checkbox-container is-enabled">/);
		expect(settings).toContain(">Check connection</button>");
		expect(settings).toContain("/home/you/Notes");
		expect(settings).toContain("127.0.0.1:52417");
		expect(settings).not.toMatch(/\/tmp\//);
	});

	it(
		"is the same on a second run: nothing in it depends on the clock, the port or the token",
		async () => {
			const again = await renderViews(mainPlugin());
			expect(again).toEqual(views);
		},
		FIXTURE_TIMEOUT_MS,
	);

	it("wraps each view in a page with the theme's class, the theme variables and styles.css", () => {
		const page = pageHtml("review", views.review, "dark", repository, views.reviewTitle);
		expect(page).toContain(`<body class="theme-dark">`);
		expect(page).toContain("--background-primary:");
		expect(page).toContain(".ccb-review-bar");
		expect(page).toContain(views.review);
		expect(page).toContain(`<div class="view-header">Review: Lisbon.md</div>`);
	});
});

/** The plugin class the built main.js exports, its `obsidian` being the tests' stand-in (jest.config.js maps it). */
function mainPlugin(): new (app: App, manifest: object) => Plugin {
	return jest.requireActual<{ default: new (app: App, manifest: object) => Plugin }>(resolve(repository, "main.js"))
		.default;
}
