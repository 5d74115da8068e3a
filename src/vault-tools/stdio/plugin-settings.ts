import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { PrivacyRules } from "../../bridge/privacy";
import { describeError } from "../../shared/describe-error";

/** The plugin's id (manifest.json): its settings are `<vault>/.obsidian/plugins/<id>/data.json`. */
export const PLUGIN_ID = "claude-code-bridge";

export interface PluginSettingsOptions {
	vaultRoot: string;
	/** Rules given on the command line; they add to the plugin's. */
	extra: PrivacyRules;
	log: (message: string) => void;
}

/**
 * The settings of Obsidian's plugin for this vault that the folder fallback needs: the privacy rules (its
 * `privateFolders` and `privateTags` in
 * `<config folder>/plugins/claude-code-bridge/data.json`; the config folder is the vault's dot folder that holds it,
 * since users can rename it),
 * for the folder fallback when Obsidian is closed, so a note private in Obsidian stays private without it.
 * `reload()` re-reads the file only when it changed; `rules()` is what the privacy filter asks per note.
 */
const ABSENT = "absent";

export class PluginSettings {
	private settingsFile: string | undefined;
	private stamp: string | undefined;
	private fromPlugin: PrivacyRules = { folders: [], tags: [] };
	private prompts: string | undefined;
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

	/** The vault tools' prompts folder set in the plugin (`vaultTools.promptsFolder`), if any. */
	promptsFolder(): string | undefined {
		return this.prompts;
	}

	/** Re-reads the plugin's settings if the file changed since the last read. */
	reload(): void {
		const stamp = this.stampOf(this.settingsFile) ?? this.findSettingsFile();
		if (stamp === this.stamp) return;
		this.stamp = stamp;
		if (stamp === ABSENT) {
			this.settingsFile = undefined;
			this.prompts = undefined;
		}
		this.fromPlugin = stamp === ABSENT ? { folders: [], tags: [] } : this.read();
		this.combined = this.combine();
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

	private stampOf(file: string | undefined): string | undefined {
		if (file === undefined) return undefined;
		try {
			const stat = statSync(file);
			return `${file}:${stat.mtimeMs}:${stat.size}:${stat.ino}`;
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
			return { folders: strings(record.privateFolders), tags: strings(record.privateTags) };
		} catch (error) {
			// Keep what was read before: a half-written file must not make private notes visible for a moment.
			this.options.log(`Could not read the plugin's privacy settings in ${this.settingsFile}: ${describeError(error)}; keeping the previous rules`);
			return this.fromPlugin;
		}
	}

	private combine(): PrivacyRules {
		return {
			folders: [...new Set([...this.options.extra.folders, ...this.fromPlugin.folders])],
			tags: [...new Set([...this.options.extra.tags, ...this.fromPlugin.tags])],
		};
	}
}

function strings(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string" && entry.trim() !== "") : [];
}
