import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { setImmediate } from "node:timers";
import type { PrivacyRules } from "./privacy";
import { describeError } from "../../shared/describe-error";
import {
	parseConfigFolderSettings,
	PLUGIN_ID,
	readConfigFolderTexts,
	type ConfigFolderSettings,
} from "./config-folder-settings";

export interface PluginSettingsOptions {
	vaultRoot: string;
	/** Rules given on the command line: they add to the plugin's, and can never remove one. */
	extra: PrivacyRules;
	/** One line per change of state (settings that cannot be read, or found in more than one config folder). */
	log: (message: string) => void;
	/**
	 * Waits a moment before settings that just turned unreadable are read again (they may be read while Obsidian
	 * writes them, which it does in place). Tests replace it; by default it blocks for `TORN_READ_WAIT_MS`.
	 */
	waitForWriter?: () => void;
	/** The clock the settings files' change times are compared with (tests); default `Date.now`. */
	now?: () => number;
	/**
	 * The vault folder's watcher, when one runs: a number that changes whenever it reports an entry of the vault's top
	 * folder (`FolderNoteStore.topLevelVersion`), undefined while it does not watch that folder. While the number
	 * stays the same, the top folder is not stat'ed each turn to see whether a config folder appeared.
	 */
	topLevelVersion?: () => number | undefined;
}

/** How often settings that just turned unreadable are read again before they count as unreadable. */
const TORN_READ_RETRIES = 3;
/** How long to wait between those reads: a writer of a few kilobytes is done well within it. */
const TORN_READ_WAIT_MS = 5;

/** How long a listing of the vault's top folder is trusted when its modification time (or the watcher) shows no change. */
const LISTING_TRUSTED_MS = 1_000;

/**
 * How long after a settings file last changed its stamp is trusted to show the file's next change: a second write
 * within one tick of a coarse file-system clock, of the same size, leaves the stamp as it was.
 */
const STAMP_SETTLED_MS = 1_000;

/** The state of one config folder, kept with the texts it was parsed from. */
interface FolderReading {
	key: string;
	settings: ConfigFolderSettings;
	/**
	 * The stamps (inode, size, modification and change times) of its files, taken before they were read, when they
	 * can be trusted to change with the files: while they stay the same, the files are not read again.
	 */
	stamps?: string;
}

/** A config folder without the plugin's settings. */
const ABSENT: FolderReading = { key: "\u0000absent", settings: { kind: "absent" } };

/**
 * The privacy rules for a vault folder, for every process that serves it without Obsidian (the headless host,
 * the stdio server's folder fallback, and the stdio side of the relay when it checks a bridge): the plugin's
 * settings (`privateFolders`, `privateTags`, and Obsidian's excluded files when `excludedFilesArePrivate`) plus the
 * command line's rules.
 *
 * Which config folder Obsidian uses for the vault cannot be known without it (users can rename it per device),
 * so every dot folder at the vault's top that holds the plugin's settings counts, and their rules are combined:
 * a stale copy can add rules, never take one away. Settings that cannot be read fail closed: `rules()` then
 * carries `unreadable` (every note counts as private) until they can be read again.
 *
 * The files are checked at most once per turn of the event loop, so a change applies to the next request without
 * a check for every note a request looks at; a check stats them and reads only those whose stamp changed. Which
 * config folders there are (the dot entries at the vault's top) is listed again when the vault's watcher reports an
 * entry there, or, without one, when a stat each turn shows the top folder changed; a config folder whose settings
 * went away lists it again at once, so a renamed one keeps its rules.
 */
export class PluginSettings {
	private readings = new Map<string, FolderReading>();
	/** What was read last time, as one string: nothing is recomputed while it stays the same. */
	private readingKey: string | undefined;
	/** The dot entries at the vault's top, with what shows them unchanged since: the watcher's version, or else the folder's mtime. */
	private listing: { names: string[]; mtimeMs?: number; topLevelVersion?: number; at: number } | undefined;
	private listingError: string | undefined;
	/** The listing's error when the readings were last compared. */
	private listingErrorRead: string | undefined;
	private combined: PrivacyRules = { folders: [], tags: [] };
	private changes = 0;
	private fresh = false;
	private saidUnreadable: string | undefined;
	private saidFolders = "";

	constructor(private readonly options: PluginSettingsOptions) {
		this.refresh();
	}

	/** The rules in force: the command line's and those of every config folder holding the plugin's settings. */
	rules(): PrivacyRules {
		this.freshen();
		return this.combined;
	}

	/**
	 * The rules of one config folder (the one a running Obsidian says it uses) plus the command line's; the
	 * combined rules when `configFolder` is not a folder name at the vault's top.
	 */
	rulesFor(configFolder: string | undefined): PrivacyRules {
		this.freshen();
		if (configFolder === undefined || !isTopDotFolder(configFolder)) return this.combined;
		const reading = this.readings.get(configFolder)?.settings ?? this.readFolder(configFolder).settings;
		return this.combine(new Map([[configFolder, { key: "", settings: reading }]]));
	}

	/** Changes whenever anything read changed (a relay checks a bridge again then). */
	revision(): number {
		this.freshen();
		return this.changes;
	}

	/** Whether the user turned the vault tools off in the plugin (`vaultTools.enabled: false`) in any config folder. */
	vaultToolsOff(): boolean {
		this.freshen();
		return [...this.readings.values()].some(({ settings }) => settings.kind === "read" && settings.vaultToolsOff);
	}

	/** The vault tools' prompts folder set in the plugin (`vaultTools.promptsFolder`), from the first config folder that sets one. */
	promptsFolder(): string | undefined {
		this.freshen();
		for (const { settings } of this.readings.values())
			if (settings.kind === "read" && settings.promptsFolder) return settings.promptsFolder;
		return undefined;
	}

	/** Reads the settings again now (normally done once per turn of the event loop, when asked). */
	refresh(): void {
		const candidates = this.configFolderCandidates();
		let readings = this.readConfigFolders(candidates.names);
		// A config folder whose settings went away may have been renamed (the watcher's event may not have arrived
		// yet): list the top folder again now, so its rules are found under the new name rather than dropped.
		if (candidates.fromWatcher && [...this.readings.keys()].some((name) => !readings.has(name))) {
			this.listing = undefined;
			readings = this.readConfigFolders(this.configFolderCandidates().names);
		}
		// The same reading objects (files not read again, or read to the same texts) and the same listing: no change.
		if (
			this.readingKey !== undefined &&
			this.listingError === this.listingErrorRead &&
			readings.size === this.readings.size &&
			[...readings].every(([name, reading]) => this.readings.get(name) === reading)
		)
			return;
		const key = [
			this.listingError ?? "",
			...[...readings].map(([name, reading]) => `${name}\u0000${reading.key}`),
		].join("\u0000");
		this.listingErrorRead = this.listingError;
		if (key === this.readingKey) {
			this.readings = readings;
			return;
		}
		this.readingKey = key;
		this.readings = readings;
		this.combined = this.combine(readings);
		this.changes++;
		this.announce();
	}

	private freshen(): void {
		if (this.fresh) return;
		this.refresh();
		// Unreadable settings are read again at the next question, even in the same turn: a file caught half
		// written must not hide every note for the questions that arrive alongside the event that caught it.
		if (this.combined.unreadable !== undefined) return;
		this.fresh = true;
		setImmediate(() => (this.fresh = false)).unref();
	}

	/** The settings of every one of these config folders that holds them. */
	private readConfigFolders(names: readonly string[]): Map<string, FolderReading> {
		const readings = new Map<string, FolderReading>();
		// Folders without the plugin's settings are read again each time: the plugin may save its first settings there.
		for (const name of names) {
			const reading = this.readFolder(name, this.readings.get(name));
			if (reading.settings.kind !== "absent") readings.set(name, reading);
		}
		return readings;
	}

	/** One config folder's settings; settings that just turned unreadable are read again a few times first. */
	private readFolder(name: string, previous?: FolderReading): FolderReading {
		let reading = this.readFolderOnce(name, previous);
		for (
			let attempt = 0;
			attempt < TORN_READ_RETRIES && reading.settings.kind === "unreadable" && reading !== previous;
			attempt++
		) {
			(this.options.waitForWriter ?? waitBriefly)();
			reading = this.readFolderOnce(name, previous);
		}
		return reading;
	}

	/** One config folder's settings as its files are now: read only when their stamps changed (or cannot be trusted). */
	private readFolderOnce(name: string, previous?: FolderReading): FolderReading {
		const stamps = this.stampsOf(name);
		if (stamps === undefined) return ABSENT;
		if (stamps.settled && previous?.stamps === stamps.key) return previous;
		const texts = readConfigFolderTexts(this.options.vaultRoot, name);
		if ("error" in texts)
			return { key: `error\n${texts.error}`, settings: { kind: "unreadable", detail: texts.error } };
		const app = typeof texts.app === "object" ? `error ${texts.app.error}` : (texts.app ?? "");
		const key = `${texts.data ?? "\u0000absent"}\u0000${app}`;
		const reading = previous?.key === key ? previous : { key, settings: parseConfigFolderSettings(name, texts) };
		if (stamps.settled) reading.stamps = stamps.key;
		else delete reading.stamps;
		return reading;
	}

	/**
	 * The stamps of a config folder's `plugins/<id>/data.json` and `app.json`, and whether both last changed long
	 * enough ago (`STAMP_SETTLED_MS`) for their stamps to show the next change; undefined when it holds no settings.
	 * A stat that fails otherwise gives a stamp that is never settled, so the files are read and the read says why.
	 */
	private stampsOf(name: string): { key: string; settled: boolean } | undefined {
		const folder = join(this.options.vaultRoot, name);
		const data = fileStamp(join(folder, "plugins", PLUGIN_ID, "data.json"));
		if (data === undefined) return undefined;
		const app = fileStamp(join(folder, "app.json"));
		const now = (this.options.now ?? Date.now)();
		const settled =
			now - data.changedMs > STAMP_SETTLED_MS && (app === undefined || now - app.changedMs > STAMP_SETTLED_MS);
		return { key: `${data.stamp}\u0000${app?.stamp ?? "absent"}`, settled };
	}

	/**
	 * The names of the dot entries at the vault's top (any of them may be the config folder), in code-unit order.
	 * Listed again when the watcher reports an entry there, or without a watcher when the folder's modification time
	 * changes (a stat each turn), and in any case after `LISTING_TRUSTED_MS` (a coarse clock may not show a folder
	 * added within the same tick). `fromWatcher`: the listing kept on the watcher's word, without a look at the folder.
	 */
	private configFolderCandidates(): { names: string[]; fromWatcher: boolean } {
		const now = Date.now();
		const listing = this.listing;
		const recent = listing !== undefined && now - listing.at < LISTING_TRUSTED_MS;
		const topLevelVersion = this.options.topLevelVersion?.();
		if (recent && topLevelVersion !== undefined && listing.topLevelVersion === topLevelVersion)
			return { names: listing.names, fromWatcher: true };
		try {
			let mtimeMs: number | undefined;
			if (topLevelVersion === undefined) {
				mtimeMs = statSync(this.options.vaultRoot).mtimeMs;
				if (recent && listing.mtimeMs === mtimeMs) return { names: listing.names, fromWatcher: false };
			}
			// A file cannot hold the plugin's settings: only folders and links (to folders, perhaps) are candidates.
			const names = readdirSync(this.options.vaultRoot, { withFileTypes: true })
				.filter(
					(entry) =>
						entry.name.startsWith(".") &&
						entry.name !== "." &&
						entry.name !== ".." &&
						(entry.isDirectory() || entry.isSymbolicLink()),
				)
				.map((entry) => entry.name)
				.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
			// The watcher's version is read before the listing: an entry added after the listing changes it again.
			this.listing = {
				names,
				at: now,
				...(mtimeMs !== undefined ? { mtimeMs } : {}),
				...(topLevelVersion !== undefined ? { topLevelVersion } : {}),
			};
			this.listingError = undefined;
			return { names, fromWatcher: false };
		} catch (error) {
			this.listing = undefined;
			this.listingError = `the vault folder: ${describeError(error)}`;
			return { names: [], fromWatcher: false };
		}
	}

	private combine(readings: ReadonlyMap<string, FolderReading>): PrivacyRules {
		const { extra } = this.options;
		const folders = new Set(extra.folders);
		const tags = new Set(extra.tags);
		let unreadable = this.listingError;
		for (const { settings } of readings.values()) {
			if (settings.kind === "unreadable") unreadable ??= settings.detail;
			if (settings.kind !== "read") continue;
			for (const folder of [...settings.folders, ...settings.excluded]) folders.add(folder);
			for (const tag of settings.tags) tags.add(tag);
		}
		return {
			folders: [...folders],
			tags: [...tags],
			...(unreadable !== undefined ? { unreadable: unreadableSentence(unreadable) } : {}),
		};
	}

	/** One line when the settings become unreadable or readable again, and when they are found in more than one config folder. */
	private announce(): void {
		const unreadable = this.combined.unreadable;
		if (unreadable !== this.saidUnreadable) {
			if (unreadable !== undefined) this.options.log(`${capitalised(unreadable)}.`);
			else if (this.saidUnreadable !== undefined)
				this.options.log(
					"The privacy settings of Claude Code Bridge for this vault can be read again: their rules apply.",
				);
			this.saidUnreadable = unreadable;
		}
		const folders = [...this.readings.keys()].join(", ");
		if (folders !== this.saidFolders) {
			if (this.readings.size > 1)
				this.options.log(
					`Claude Code Bridge's settings are in more than one config folder (${folders}): which one Obsidian uses cannot be known here, so the privacy rules of all of them apply.`,
				);
			this.saidFolders = folders;
		}
	}
}

/** Why nothing is served, as one sentence for logs and tool errors. */
export function unreadableSentence(detail: string): string {
	return `the privacy settings of Claude Code Bridge for this vault cannot be read (${detail}), so no note is served until they can be; fix or restore that file`;
}

/**
 * A file's stamp (inode, size, modification and change times) and its change time; undefined when there is no
 * file (nothing there, or a file on the way); a failed stat gives a stamp naming the error, never settled.
 */
function fileStamp(path: string): { stamp: string; changedMs: number } | undefined {
	try {
		const stats = statSync(path, { throwIfNoEntry: false });
		if (stats === undefined) return undefined;
		return {
			stamp: `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`,
			changedMs: Math.max(stats.mtimeMs, stats.ctimeMs),
		};
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOTDIR") return undefined;
		return { stamp: `error ${code ?? describeError(error)}`, changedMs: Number.POSITIVE_INFINITY };
	}
}

/** Blocks for `TORN_READ_WAIT_MS` (only ever when settings just turned unreadable). */
function waitBriefly(): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, TORN_READ_WAIT_MS);
}

/** A config folder name as Obsidian allows it: one dot folder at the vault's top. */
function isTopDotFolder(name: string): boolean {
	return /^\.[^/\\]+$/.test(name) && name !== "." && name !== "..";
}

function capitalised(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
