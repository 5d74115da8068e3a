/**
 * The HTML step of `npm run screenshots`: loads the built main.js with the tests' `obsidian` stand-in, lets a
 * Claude Code client propose an edit of a prose note over the real socket (the review view opens, and its first
 * change is accepted), opens the settings tab, and turns both views into HTML. Whatever changes between runs (the
 * clock, the temp folder, the port, the token's fingerprint) is replaced by fixed values, so a rerun gives the
 * same pictures.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { App, FakeElement, Setting, type Plugin, type PluginSettingTab } from "../../tests/__mocks__/obsidian";
import { connectOrThrow } from "../../tests/helpers/test-client";
import { makeTempDir } from "../../tests/helpers/temp-dir";
import { pollUntil } from "../../tests/helpers/wait-until";

/** The moment the proposal arrives, as the decision bar shows it (UTC). */
export const FIXED_TIME = new Date("2026-05-14T09:41:00Z");
const SHOWN_VAULT = "/home/you/Notes";
const SHOWN_PORT = "52417";
const SHOWN_VAULT_TOOLS_PORT = "52418";

export const NOTE_PATH = "Trips/Lisbon.md";
export const NOTE = `# Four days in Lisbon

We land on Friday morning and take the metro into Baixa. The hotel is a short walk from the station, so we can leave the bags and go straight out.

## Day one

Start at the castle before the crowds arrive, then walk down through Alfama for lunch.

In the afternoon, take tram 28 to Estrela and walk back along the river.

## Day two

Belém: the monastery, the tower and the custard tarts at the old bakery.

Visit the tile museum if there is time.

## Packing

Comfortable shoes and a light jacket.
Adapters for the chargers.
`;

export const PROPOSAL = `# Four days in Lisbon

We land on Friday morning and take the airport metro into Baixa. The hotel is a short walk from Rossio station, so we can drop the bags and head straight out.

## Day one

Start at the castle before the crowds arrive, then walk down through Alfama for lunch.

In the afternoon, take tram 28 to Estrela and walk back along the river.

## Day two

Belém: the monastery, the tower and the custard tarts at the old bakery.

Book the tile museum ahead: it is closed on Mondays.

## Packing

Comfortable shoes, a light jacket and sunscreen.
Adapters for the chargers.
`;

export interface ViewsHtml {
	/** The review view's content, as the body of a leaf. */
	review: string;
	/** The review tab's title (the view's display text). */
	reviewTitle: string;
	/** The settings tab's content. */
	settings: string;
}

/** Renders the review view and the settings tab of the plugin main.js exports, as HTML fragments. */
export async function renderViews(MainPlugin: new (app: App, manifest: object) => Plugin): Promise<ViewsHtml> {
	const temp = makeTempDir("screenshots");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "Notes");
	mkdirSync(home);
	mkdirSync(join(vault, "Trips"), { recursive: true });
	writeFileSync(join(vault, NOTE_PATH), NOTE);
	const originalHome = process.env.HOME;
	const RealDate = globalThis.Date;
	process.env.HOME = home;
	globalThis.Date = fixedClock(RealDate);
	const app = new App(vault, "Notes");
	app.vault.contents.set(NOTE_PATH, NOTE);
	const plugin = new MainPlugin(app, { id: "claude-code-bridge", name: "Claude Code Bridge", version: "0.1.0" });
	let client: Awaited<ReturnType<typeof connectOrThrow>> | undefined;
	try {
		plugin.load();
		await new Promise((settle) => setTimeout(settle, 0));
		app.workspace.finishLayout();
		app.workspace.flushEvents();
		const lockDirectory = join(home, ".claude", "ide");
		const lockName = await pollUntil(
			() => (existsSync(lockDirectory) ? readdirSync(lockDirectory) : []).find((name) => name.endsWith(".lock")),
			"the lock file",
		);
		const lock = JSON.parse(readFileSync(join(lockDirectory, lockName), "utf8")) as { authToken: string };
		const port = lockName.replace(".lock", "");
		client = await connectOrThrow(Number(port), { token: lock.authToken });
		await client.request("initialize", {
			protocolVersion: "2025-11-25",
			capabilities: {},
			clientInfo: { name: "claude-code", version: "2.1.0" },
		});
		client.notify("notifications/initialized");
		const answer = client.request("tools/call", {
			name: "openDiff",
			arguments: {
				old_file_path: join(vault, NOTE_PATH),
				new_file_path: join(vault, NOTE_PATH),
				new_file_contents: PROPOSAL,
				tab_name: "✻ [Claude Code] Lisbon.md ⧉",
			},
		});
		const reviewView = await pollUntil(() => {
			const view = app.workspace.getLeavesOfType("claude-code-diff")[0]?.view as
				{ contentEl?: FakeElement; getDisplayText(): string } | undefined;
			return view?.contentEl?.findAll("ccb-review-accept")[0] ? view : undefined;
		}, "the review view");
		const review = reviewView.contentEl;
		if (!review) throw new Error("the review view has no content");
		// The writer has accepted the first change already: it stays in view, marked, with Undo.
		review.findAll("ccb-suggest-accept")[0]?.dispatch("click");
		const tab = plugin.settingTabs[0] as (PluginSettingTab & { display(): void }) | undefined;
		if (!tab) throw new Error("main.js added no settings tab");
		tab.display();
		const controls = new Map(Setting.created.map((setting) => [setting.settingEl, setting]));
		const vaultToolsPort = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(serialize(tab.containerEl, controls))?.[1];
		const replacements: [RegExp, string][] = [
			[new RegExp(escapeRegExp(vault), "g"), SHOWN_VAULT],
			[new RegExp(escapeRegExp(home), "g"), "/home/you"],
			[new RegExp(`\\b${port}\\b`, "g"), SHOWN_PORT],
			...(vaultToolsPort === undefined
				? []
				: [[new RegExp(`\\b${vaultToolsPort}\\b`, "g"), SHOWN_VAULT_TOOLS_PORT] as [RegExp, string]]),
			[new RegExp(escapeRegExp(lock.authToken), "g"), "<token>"],
			[/fingerprint is [0-9a-f:…]+/gi, "fingerprint is 3f9a…c2d1"],
			// The vault tools' headers file is named after the vault's (temporary) real path.
			[/-[0-9a-f]{16}\.headers\.json/g, "-1f2e3d4c5b6a7988.headers.json"],
		];
		const html = (root: FakeElement): string =>
			replacements.reduce((text, [pattern, shown]) => text.replace(pattern, shown), serialize(root, controls));
		const views = {
			review: html(review),
			reviewTitle: reviewView.getDisplayText(),
			settings: html(tab.containerEl),
		};
		// Pictures taken: the user rejects, and Claude Code gets its answer.
		review.findAll("ccb-review-reject")[0]?.dispatch("click");
		await answer;
		return views;
	} finally {
		plugin.unload();
		await client?.close();
		globalThis.Date = RealDate;
		process.env.HOME = originalHome;
		temp.remove();
	}
}

/** A Date whose "now" (`new Date()`) is FIXED_TIME, shown in UTC and English, whatever the machine's zone and locale. */
function fixedClock(RealDate: DateConstructor): DateConstructor {
	class FixedDate extends RealDate {
		constructor(...args: [] | [string | number | Date]) {
			if (args.length === 0) super(FIXED_TIME.getTime());
			else super(args[0]);
		}
		override toLocaleTimeString(_locales?: string | string[], options?: Intl.DateTimeFormatOptions): string {
			return super.toLocaleTimeString("en-GB", { ...options, timeZone: "UTC" });
		}
	}
	return FixedDate as DateConstructor;
}

/** Each settings row's element and its Setting: its toggles, fields and buttons are drawn as Obsidian draws them. */
type SettingRows = Map<FakeElement, Setting>;

const VOID = new Set(["input", "br", "hr"]);

/** The element tree as HTML: its classes and attributes, its text escaped, a settings row's controls after its info. */
export function serialize(element: FakeElement, rows: SettingRows): string {
	// `appendText` adds a text node (the stand-in's `#text` child).
	if (element.tag === "#text") return escapeHtml(element.text);
	const attributes = [
		...(element.classes.size > 0 ? [["class", [...element.classes].join(" ")]] : []),
		...element.attributes,
	];
	const open = `<${element.tag}${attributes.map(([name, value]) => ` ${name}="${escapeHtml(value ?? "")}"`).join("")}>`;
	if (VOID.has(element.tag)) return open;
	const text = element.tag === "textarea" ? element.value : element.text;
	const setting = rows.get(element);
	const inner =
		escapeHtml(text) +
		element.children.map((child) => serialize(child, rows)).join("") +
		(setting ? settingControls(setting) : "");
	return `${open}${inner}</${element.tag}>`;
}

function settingControls(setting: Setting): string {
	if (setting.toggles.length + setting.texts.length + setting.buttons.length === 0) return "";
	const texts = setting.texts.map((input) =>
		input.isTextArea
			? `<textarea rows="3" placeholder="${escapeHtml(input.placeholder)}">${escapeHtml(input.value ?? "")}</textarea>`
			: `<input type="text" placeholder="${escapeHtml(input.placeholder)}" value="${escapeHtml(input.value ?? "")}">`,
	);
	const toggles = setting.toggles.map(
		(toggle) =>
			`<div class="checkbox-container${toggle.value === true ? " is-enabled" : ""}"><input type="checkbox"></div>`,
	);
	const buttons = setting.buttons.map(
		(button) =>
			`<button${button.cta ? ` class="mod-cta"` : ""}${button.disabled ? " disabled" : ""}>${escapeHtml(button.text)}</button>`,
	);
	return `<div class="setting-item-control">${[...texts, ...buttons, ...toggles].join("")}</div>`;
}

function escapeHtml(text: string): string {
	return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
