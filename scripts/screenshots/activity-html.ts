/**
 * The activity view's page of `npm run screenshots`: a journal of two conversations (one in the panel, titled by
 * the user's first words; one from the terminal, with Claude Code's automatic IDE calls and a rejected change) is
 * written as the plugin writes it, sealed with this device's key, then the built main.js runs in the stand-in, its
 * activity view opens and the panel's edit is chosen so its details show. Whatever changes between runs (the clock,
 * the temp folder, the ids) is fixed, so a rerun gives the same picture.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deviceJournalSeal } from "../../src/assembly/journal-wiring";
import { contentHash } from "../../src/journal/content-hash";
import { FolderJournalStore } from "../../src/journal/folder-journal-store";
import { Journal } from "../../src/journal/journal";
import { JournalConversation } from "../../src/journal/journal-conversation";
import { pluginJournalFolderIn } from "../../src/journal/journal-folder";
import type { CallOutcome, JournalSession, NoteChange } from "../../src/journal/journal-records";
import { App, FakeElement, type Plugin } from "../../tests/__mocks__/obsidian";
import { makeTempDir } from "../../tests/helpers/temp-dir";
import { pollUntil } from "../../tests/helpers/wait-until";
import { FIXED_TIME, serialize } from "./views-html";

const PLUGIN_ID = "claude-code-bridge";
const ACTIVITY_VIEW_TYPE = "claude-code-bridge-activity";
const SHOWN_VAULT = "/home/you/Notes";

const WALKING_BEFORE = `# On walking

I think the best walks are the ones without a plan. You leave the house, you turn left or right, and the town does the rest.

Walking is how I think.
`;
const WALKING_AFTER = `# On walking

The best walks have no plan. You leave the house, turn left or right, and let the town do the rest.

Walking is how I think.
`;
const INDEX_BEFORE = `# Essays

- [[On reading]]
`;
const INDEX_AFTER = `# Essays

- [[On reading]]
- [[On walking]]
`;
const WALKS = `# Walks to take

- Along the river to the old mill
`;
const LISBON = "# Four days in Lisbon\n\nWe land on Friday morning and take the metro into Baixa.\n";

/** The notes of the vault, as they are after the conversations. */
const NOTES: Record<string, string> = {
	"Essays/On walking.md": WALKING_AFTER,
	"Essays/Index.md": INDEX_AFTER,
	"Essays/Walks to take.md": WALKS,
	"Trips/Lisbon.md": LISBON,
};

export interface ActivityHtml {
	/** The activity view's content, as the body of a leaf. */
	html: string;
	/** The view's display text (the tab's title). */
	title: string;
}

/** Renders the activity view of the plugin main.js exports over a journal of two conversations, as an HTML fragment. */
export async function renderActivity(MainPlugin: new (app: App, manifest: object) => Plugin): Promise<ActivityHtml> {
	const temp = makeTempDir("screenshots-activity");
	const home = join(temp.path, "home");
	const vault = join(temp.path, "Notes");
	mkdirSync(home);
	for (const [path, text] of Object.entries(NOTES)) {
		mkdirSync(join(vault, path, ".."), { recursive: true });
		writeFileSync(join(vault, path), text);
	}
	const saved = { HOME: process.env.HOME, XDG_DATA_HOME: process.env.XDG_DATA_HOME };
	const RealDate = globalThis.Date;
	process.env.HOME = home;
	// The device key the journal is sealed with, where the plugin looks for it too.
	process.env.XDG_DATA_HOME = join(home, ".local", "share");
	const app = new App(vault, "Notes");
	for (const [path, text] of Object.entries(NOTES)) app.vault.contents.set(path, text);
	await writeJournal(vault, app.vault.configDir, home);
	globalThis.Date = fixedClock(RealDate);
	const plugin = new MainPlugin(app, { id: PLUGIN_ID, name: "Claude Code Bridge", version: "0.1.0" });
	try {
		plugin.load();
		await new Promise((settle) => setTimeout(settle, 0));
		app.workspace.finishLayout();
		app.workspace.flushEvents();
		const leaf = app.workspace.getLeaf("tab");
		await leaf.setViewState({ type: ACTIVITY_VIEW_TYPE, active: true });
		const view = leaf.view as unknown as {
			contentEl: FakeElement;
			getDisplayText(): string;
			reload(): Promise<void>;
		};
		// The bridge starts at layout ready, the journal with it: read again until its calls are listed.
		const edit = await pollUntil(async () => {
			const found = view.contentEl
				.findAll("ccb-activity-entry")
				.find((row) => row.findAll("ccb-activity-summary")[0]?.textContent === "Edited On walking");
			if (!found) await view.reload();
			return found;
		}, "the activity view's rows");
		edit.dispatch("click");
		await pollUntil(() => view.contentEl.findAll("ccb-diff")[0], "the chosen entry's details");
		const html = serialize(asBrowserShows(view.contentEl), new Map())
			// Text nodes (`appendText`) are the stand-in's `#text` elements: their text alone is the node.
			.replace(/<\/?#text>/g, "")
			.replace(new RegExp(escapeRegExp(vault), "g"), SHOWN_VAULT);
		return { html, title: view.getDisplayText() };
	} finally {
		plugin.unload();
		globalThis.Date = RealDate;
		restore("HOME", saved.HOME);
		restore("XDG_DATA_HOME", saved.XDG_DATA_HOME);
		temp.remove();
	}
}

/** Writes the two conversations into the plugin's journal, as the bridge records them, sealed with this device's key. */
async function writeJournal(vault: string, configDir: string, home: string): Promise<void> {
	const seal = deviceJournalSeal(vault, process.env, home, (message) => {
		throw new Error(message);
	});
	let now = FIXED_TIME.getTime();
	let ids = 0;
	const journal = new Journal({
		store: new FolderJournalStore(pluginJournalFolderIn(vault, join(vault, configDir, "plugins", PLUGIN_ID))),
		...(seal ? { seal } : {}),
		now: () => now,
		newId: () => ((++ids * 2654435761) >>> 0).toString(16).padStart(8, "0"),
	});
	const at = (time: string): number => new Date(`2026-05-14T${time}Z`).getTime();
	const record = async (
		session: JournalSession,
		time: string,
		tool: string,
		call: { notes?: string[]; args?: string; outcome?: CallOutcome; change?: NoteChange; before?: string },
	): Promise<void> => {
		now = at(time);
		const id = journal.begin({ session, tool, notes: call.notes ?? [], args: call.args ?? "" });
		if (call.change) {
			const before = call.before === undefined ? [] : [{ hash: hash(call.before), bytes: utf8(call.before) }];
			await journal.recordChange(id, call.change, before);
		}
		journal.finish(id, { outcome: call.outcome ?? "ok", durationMs: 12, answerBytes: 640 });
	};

	// From the terminal: Claude Code connected to Obsidian, checking around two proposed changes to Lisbon.
	const terminal: JournalSession = {
		key: journal.newSessionKey(),
		surface: "ide",
		client: "claude-code",
		pid: 48213,
		connection: 1,
	};
	const lisbon = { notes: ["Trips/Lisbon.md"], args: "filePath=Trips/Lisbon.md" };
	const diff = {
		notes: ["Trips/Lisbon.md"],
		args: `old_file_path=Trips/Lisbon.md new_file_path=Trips/Lisbon.md new_file_contents="# Four days in Lisbon We land on Friday…" tab_name="✻ [Claude Code] Lisbon.md ⧉"`,
	};
	await record(terminal, "09:12:04", "closeAllDiffTabs", {});
	await record(terminal, "09:12:05", "getWorkspaceFolders", {});
	await record(terminal, "09:12:20", "getOpenEditors", {});
	await record(terminal, "09:12:21", "getCurrentSelection", {});
	await record(terminal, "09:13:02", "getDiagnostics", { notes: ["Trips/Lisbon.md"], args: "uri=Trips/Lisbon.md" });
	await record(terminal, "09:13:40", "checkDocumentDirty", lisbon);
	await record(terminal, "09:13:41", "openDiff", { ...diff, outcome: "rejected" });
	await record(terminal, "09:15:10", "close_tab", { args: `tab_name="✻ [Claude Code] Lisbon.md ⧉"` });
	await record(terminal, "09:16:02", "checkDocumentDirty", lisbon);
	await record(terminal, "09:16:03", "openDiff", diff);
	await record(terminal, "09:17:30", "close_tab", { args: `tab_name="✻ [Claude Code] Lisbon.md ⧉"` });
	await record(terminal, "09:17:31", "getDiagnostics", { notes: ["Trips/Lisbon.md"], args: "uri=Trips/Lisbon.md" });
	await record(terminal, "09:18:00", "openFile", lisbon);

	// In the panel: one conversation, its vault tools' calls and its own edits, titled by the user's first words.
	const conversation = new JournalConversation(journal, "panel", "claude-code");
	conversation.name("Tighten the opening of On walking and link it from the index");
	const panel = (): JournalSession => conversation.session();
	const walking = { notes: ["Essays/On walking.md"], args: "path=Essays/On walking.md" };
	await record(panel(), "09:30:12", "search", { args: 'query="walking" limit=20' });
	await record(panel(), "09:30:15", "read_note", walking);
	await record(panel(), "09:30:20", "links", walking);
	await record(panel(), "09:31:02", "Edit", {
		notes: ["Essays/On walking.md"],
		args: `Edit ${join(vault, "Essays/On walking.md")}`,
		change: edit("Essays/On walking.md", WALKING_BEFORE, WALKING_AFTER),
		before: WALKING_BEFORE,
	});
	await record(panel(), "09:32:40", "read_note", { notes: ["Essays/Index.md"], args: "path=Essays/Index.md" });
	await record(panel(), "09:33:05", "edit_note", {
		notes: ["Essays/Index.md"],
		args: "path=Essays/Index.md edits=[1 item]",
		change: edit("Essays/Index.md", INDEX_BEFORE, INDEX_AFTER),
		before: INDEX_BEFORE,
	});
	await record(panel(), "09:34:10", "set_properties", { ...walking, outcome: "rejected" });
	await record(panel(), "09:35:00", "Write", {
		notes: ["Essays/Walks to take.md"],
		args: `Write ${join(vault, "Essays/Walks to take.md")}`,
		change: { kind: "create", path: "Essays/Walks to take.md", after: hash(WALKS) },
	});
	await journal.close();
}

function edit(path: string, before: string, after: string): NoteChange {
	return { kind: "edit", path, before: { hash: hash(before), bytes: utf8(before).byteLength }, after: hash(after) };
}

function utf8(text: string): Uint8Array {
	return new TextEncoder().encode(text);
}

function hash(text: string): string {
	return contentHash(utf8(text));
}

/**
 * What a browser shows of the elements' state: the custom properties `setCssProps` gave (the list's height and
 * offset) as their style, a field's value as its attribute.
 */
function asBrowserShows(root: FakeElement): FakeElement {
	const visit = (element: FakeElement): void => {
		if (element.tag === "input" && element.value !== "") element.setAttribute("value", element.value);
		if (element.cssProps.size > 0)
			element.setAttribute("style", [...element.cssProps].map(([name, value]) => `${name}: ${value}`).join("; "));
		element.children.forEach(visit);
	};
	visit(root);
	return root;
}

/** A Date whose "now" is FIXED_TIME, and whose times and dates read in UTC and English, whatever the machine's. */
function fixedClock(RealDate: DateConstructor): DateConstructor {
	class FixedDate extends RealDate {
		constructor(...args: [] | [string | number | Date]) {
			if (args.length === 0) super(FIXED_TIME.getTime());
			else super(args[0]);
		}
		override toLocaleTimeString(_locales?: string | string[], options?: Intl.DateTimeFormatOptions): string {
			return super.toLocaleTimeString("en-GB", { ...options, timeZone: "UTC" });
		}
		override toLocaleString(_locales?: string | string[], options?: Intl.DateTimeFormatOptions): string {
			return super.toLocaleString("en-GB", { ...options, timeZone: "UTC" });
		}
	}
	return FixedDate as DateConstructor;
}

function restore(name: "HOME" | "XDG_DATA_HOME", value: string | undefined): void {
	if (value === undefined) delete process.env[name];
	else process.env[name] = value;
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
