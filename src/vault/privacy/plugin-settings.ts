import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { PrivacyRules } from "./privacy";
import { describeError } from "../../shared/describe-error";

/** The plugin's id (manifest.json): its settings are `<vault>/.obsidian/plugins/<id>/data.json`. */
export const PLUGIN_ID = "claude-code-bridge";

export interface PluginSettingsOptions {
	vaultRoot: string;
	/** Rules given on the command line; they add to the plugin's. */
	extra: PrivacyRules;
	log: (message: string) => void;
}

const ABSENT = "absent";

/**
 * The settings of Obsidian's plugin for this vault that the folder fallback needs, so a note private in Obsidian
 * stays private while Obsidian is closed: `privateFolders`, `privateTags` and `vaultTools.promptsFolder` from
 * `<config folder>/plugins/claude-code-bridge/data.json` (the config folder is the vault's dot folder that holds
 * it, since users can rename it), and, when its `excludedFilesArePrivate` switch is on, Obsidian's excluded files
 * from that folder's app.json. `reload()` re-reads them when they changed; `rules()` is what the privacy filter
 * asks per note.
 */
export class PluginSettings {
	private settingsFile: string | undefined;
	private stamp: string | undefined;
	private fromPlugin: PrivacyRules = { folders: [], tags: [] };
	private prompts: string | undefined;
	private toolsOff = false;
	/** The plugin's "Excluded files are private" switch, and Obsidian's list as read from `<config folder>/app.json`. */
	private excludedArePrivate = false;
	private excludedStamp: string | undefined;
	private excludedPaths: string[] = [];
	private combined: PrivacyRules;

	constructor(private readonly options: PluginSettingsOptions) {
		this.combined = this.combine();
		this.reload();
	}

	/** The plugin's settings file, once found. */
	get file(): string | undefined {
		return this.settingsFile;
	}

	rules(): PrivacyRules {
		return this.combined;
	}

	/** Whether the user turned the vault tools off in the plugin (`vaultTools.enabled: false`). */
	vaultToolsOff(): boolean {
		return this.toolsOff;
	}

	/** The vault tools' prompts folder set in the plugin (`vaultTools.promptsFolder`), if any. */
	promptsFolder(): string | undefined {
		return this.prompts;
	}

	/** Re-reads the plugin's settings (and Obsidian's excluded files, when they count) if they changed since the last read. */
	reload(): void {
		const stamp = this.stampOf(this.settingsFile) ?? this.findSettingsFile();
		let changed = false;
		if (stamp !== this.stamp) {
			this.stamp = stamp;
			if (stamp === ABSENT) {
				this.settingsFile = undefined;
				this.prompts = undefined;
				this.excludedArePrivate = false;
			}
			this.fromPlugin = stamp === ABSENT ? { folders: [], tags: [] } : this.read();
			changed = true;
		}
		const appFile = this.excludedArePrivate && this.settingsFile ? join(dirname(dirname(dirname(this.settingsFile))), "app.json") : undefined;
		const excludedStamp = (appFile && this.stampOf(appFile)) ?? ABSENT;
		if (excludedStamp !== this.excludedStamp || changed) {
			this.excludedStamp = excludedStamp;
			this.excludedPaths = appFile && excludedStamp !== ABSENT ? this.readExcludedPaths(appFile) : [];
			changed = true;
		}
		if (changed) this.combined = this.combine();
	}

	/**
	 * Obsidian's "Excluded files" (`userIgnoreFilters` in app.json) as the plugin applies them: folder and file
	 * paths become private folders; regular-expression entries (`/…/`) cannot be expressed as a path rule and are
	 * not applied, in Obsidian either (see src/obsidian/excluded-files.ts).
	 */
	private readExcludedPaths(appFile: string): string[] {
		try {
			const parsed: unknown = JSON.parse(readFileSync(appFile, "utf8"));
			const value = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>).userIgnoreFilters : undefined;
			return strings(value)
				.map((entry) => entry.trim())
				.filter((entry) => !/^\/.+\/[a-z]*$/.test(entry))
				.map((entry) => entry.replace(/^\/+|\/+$/g, ""))
				.filter((entry) => entry !== "");
		} catch (error) {
			this.options.log(`Could not read Obsidian's excluded files in ${appFile}: ${describeError(error)}; keeping the previous list`);
			return this.excludedPaths;
		}
	}

	/** Looks in each dot folder at the vault's top for `plugins/<id>/data.json`. */
	private findSettingsFile(): string {
		for (const file of this.candidates()) {
			const stamp = this.stampOf(file);
			if (stamp !== undefined) {
				this.settingsFile = file;
				return stamp;
			}
		}
		return ABSENT;
	}

	/**
	 * What identifies the file's state: its path and whole text (both files are small). Not its mtime and size: a
	 * change within the file system's time granularity that keeps the size must not be missed, or a note made
	 * private would stay visible.
	 */
	private stampOf(file: string | undefined): string | undefined {
		if (file === undefined) return undefined;
		try {
			return `${file}\n${readFileSync(file, "utf8")}`;
		} catch {
			return undefined;
		}
	}

	/** `<vault>/<dot folder>/plugins/<id>/data.json` for each dot folder at the vault's top. */
	private candidates(): string[] {
		try {
			return readdirSync(this.options.vaultRoot, { withFileTypes: true })
				.filter((entry) => entry.isDirectory() && entry.name.startsWith("."))
				.map((entry) => join(this.options.vaultRoot, entry.name, "plugins", PLUGIN_ID, "data.json"));
		} catch {
			return [];
		}
	}

	private read(): PrivacyRules {
		if (this.settingsFile === undefined) return { folders: [], tags: [] };
		try {
			const parsed: unknown = JSON.parse(readFileSync(this.settingsFile, "utf8"));
			const record = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
			const vaultTools = typeof record.vaultTools === "object" && record.vaultTools !== null ? (record.vaultTools as Record<string, unknown>) : {};
			this.prompts = typeof vaultTools.promptsFolder === "string" && vaultTools.promptsFolder.trim() !== "" ? vaultTools.promptsFolder.trim() : undefined;
			this.toolsOff = vaultTools.enabled === false;
			this.excludedArePrivate = record.excludedFilesArePrivate === true;
			return { folders: strings(record.privateFolders), tags: strings(record.privateTags) };
		} catch (error) {
			// Keep what was read before: a half-written file must not make private notes visible for a moment.
			this.options.log(`Could not read the plugin's privacy settings in ${this.settingsFile}: ${describeError(error)}; keeping the previous rules`);
			return this.fromPlugin;
		}
	}

	private combine(): PrivacyRules {
		return {
			folders: [...new Set([...this.options.extra.folders, ...this.fromPlugin.folders, ...this.excludedPaths])],
			tags: [...new Set([...this.options.extra.tags, ...this.fromPlugin.tags])],
		};
	}
}

function strings(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string" && entry.trim() !== "") : [];
}
