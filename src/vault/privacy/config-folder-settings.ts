import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describeError } from "../../shared/describe-error";
import { excludedFiles } from "./excluded-file-rules";

/** The plugin's id (manifest.json): its settings are `<vault>/<config folder>/plugins/<id>/data.json`. */
export const PLUGIN_ID = "claude-code-bridge";

/** What one config folder says about the vault, as the plugin would apply it. */
export type ConfigFolderSettings =
	/** The folder holds no settings of the plugin (not a config folder, or the plugin never saved any there). */
	| { kind: "absent" }
	| {
			kind: "read";
			folders: string[];
			tags: string[];
			/** Obsidian's excluded files, when the plugin's "excluded files are private" switch is on. */
			excluded: string[];
			vaultToolsOff: boolean;
			promptsFolder?: string;
	  }
	/** The settings are there but cannot be read or are not what the plugin writes: which file, and why. */
	| { kind: "unreadable"; detail: string };

/** The texts a config folder's settings are read from; undefined where the file does not exist. */
export interface ConfigFolderTexts {
	data: string | undefined;
	/** `<config folder>/app.json`, or the reason it cannot be read (it matters only when excluded files count). */
	app: string | undefined | { error: string };
}

/** `<folder>/plugins/claude-code-bridge/data.json` and `<folder>/app.json`, as files of the vault root. */
export function readConfigFolderTexts(vaultRoot: string, folder: string): ConfigFolderTexts | { error: string } {
	let data: string | undefined;
	try {
		data = readIfPresent(join(vaultRoot, folder, "plugins", PLUGIN_ID, "data.json"));
	} catch (error) {
		return { error: `${dataFileOf(folder)}: ${describeError(error)}` };
	}
	if (data === undefined) return { data, app: undefined };
	let app: ConfigFolderTexts["app"];
	try {
		app = readIfPresent(join(vaultRoot, folder, "app.json"));
	} catch (error) {
		app = { error: `${folder}/app.json: ${describeError(error)}` };
	}
	return { data, app };
}

/**
 * The plugin's settings in one config folder, read as the plugin reads them (see `migrateSettings`) but failing
 * closed: a file that does not parse, or whose privacy keys have another shape, is `unreadable`, never "no rules".
 */
export function parseConfigFolderSettings(folder: string, texts: ConfigFolderTexts): ConfigFolderSettings {
	if (texts.data === undefined) return { kind: "absent" };
	const dataFile = dataFileOf(folder);
	const record = parseObject(texts.data);
	if (typeof record === "string") return { kind: "unreadable", detail: `${dataFile}: ${record}` };
	const folders = stringList(record.privateFolders);
	const tags = stringList(record.privateTags);
	if (folders === undefined)
		return { kind: "unreadable", detail: `${dataFile}: "privateFolders" is not a list of folders` };
	if (tags === undefined) return { kind: "unreadable", detail: `${dataFile}: "privateTags" is not a list of tags` };
	const vaultTools =
		typeof record.vaultTools === "object" && record.vaultTools !== null
			? (record.vaultTools as Record<string, unknown>)
			: {};
	const promptsFolder =
		typeof vaultTools.promptsFolder === "string" && vaultTools.promptsFolder.trim() !== ""
			? vaultTools.promptsFolder.trim()
			: undefined;
	let excluded: string[] = [];
	if (record.excludedFilesArePrivate === true && texts.app !== undefined) {
		if (typeof texts.app !== "string") return { kind: "unreadable", detail: texts.app.error };
		const app = parseObject(texts.app);
		if (typeof app === "string") return { kind: "unreadable", detail: `${folder}/app.json: ${app}` };
		excluded = excludedFiles(app.userIgnoreFilters).paths;
	}
	return {
		kind: "read",
		folders,
		tags,
		excluded,
		vaultToolsOff: vaultTools.enabled === false,
		...(promptsFolder ? { promptsFolder } : {}),
	};
}

/** The settings file's vault path, as messages name it. */
export function dataFileOf(folder: string): string {
	return `${folder}/plugins/${PLUGIN_ID}/data.json`;
}

/** A file's text, or undefined when it (or its folder) does not exist; any other failure throws. */
function readIfPresent(file: string): string | undefined {
	try {
		return readFileSync(file, "utf8");
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return undefined;
		throw error;
	}
}

/** A JSON object, or why the text is not one. */
function parseObject(text: string): Record<string, unknown> | string {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		return `not valid JSON (${describeError(error)})`;
	}
	return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
		? (parsed as Record<string, unknown>)
		: "not a JSON object";
}

/** The non-empty strings of a list (as the plugin keeps them); absent is empty; anything else is undefined. */
function stringList(value: unknown): string[] | undefined {
	if (value === undefined) return [];
	if (!Array.isArray(value)) return undefined;
	return value.filter((entry): entry is string => typeof entry === "string" && entry.trim() !== "");
}
