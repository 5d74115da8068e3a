import { ErrorCode, JsonRpcError, type JsonObject } from "../../protocol/json-rpc";
import type { ActiveNoteSource } from "../kit/ports";
import { capText } from "../kit/tool-kit";
import type { VisibleVault } from "../../vault/privacy/visible-vault";

export const ACTIVE_NOTE_URI = "vault://active-note";
export const DAILY_NOTE_URI = "vault://daily-note";
export const OVERVIEW_URI = "vault://overview";

const LISTED_FOLDERS = 15;
const LISTED_TAGS = 20;

export interface VaultResourcesOptions {
	vault: VisibleVault;
	vaultName: string;
	activeNote?: ActiveNoteSource;
	/** Today's daily note's vault path when Obsidian's Daily notes plugin is on (Obsidian side only). */
	dailyNote?: () => string | undefined;
	/** Characters of a note's text a resource answers before it is cut. */
	textCap: number;
}

interface ResourceEntry {
	uri: string;
	name: string;
	description: string;
	/** The note it stands for, for notes. */
	path?: string;
}

/**
 * A few fixed resources Claude Code lets the user `@`-mention: the note open in Obsidian, today's daily note (when
 * the Daily notes plugin is on and the note exists), and an overview of the vault (notes, folders, tags). Only notes
 * the vault tools may see are offered or read; a note that is private or gone is simply not listed.
 */
export class VaultResources {
	constructor(private readonly options: VaultResourcesOptions) {}

	async list(): Promise<JsonObject> {
		const entries = await this.entries();
		return {
			resources: entries.map((entry) => ({
				uri: entry.uri,
				name: entry.name,
				description: entry.description,
				mimeType: "text/markdown",
			})),
		};
	}

	async read(params: JsonObject): Promise<JsonObject> {
		const uri = params.uri;
		if (typeof uri !== "string") throw new JsonRpcError(ErrorCode.InvalidParams, 'resources/read needs "uri"');
		const entry = (await this.entries()).find((candidate) => candidate.uri === uri);
		if (!entry) throw new JsonRpcError(ErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
		const text = entry.path === undefined ? this.overview() : await this.noteText(entry.path);
		if (text === undefined) throw new JsonRpcError(ErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
		return { contents: [{ uri, mimeType: "text/markdown", text }] };
	}

	private async entries(): Promise<ResourceEntry[]> {
		const { vault } = this.options;
		await vault.refresh();
		const entries: ResourceEntry[] = [];
		const active = await this.options.activeNote?.current();
		if (active && this.isNote(active.path))
			entries.push({
				uri: ACTIVE_NOTE_URI,
				name: "Active note",
				description: `The note open in Obsidian: ${active.path}`,
				path: active.path,
			});
		const daily = this.options.dailyNote?.();
		if (daily !== undefined && this.isNote(daily))
			entries.push({
				uri: DAILY_NOTE_URI,
				name: "Today's daily note",
				description: `Today's daily note: ${daily}`,
				path: daily,
			});
		entries.push({
			uri: OVERVIEW_URI,
			name: "Vault overview",
			description: `Notes, folders and tags of the vault "${this.options.vaultName}"`,
		});
		return entries;
	}

	private isNote(path: string): boolean {
		return this.options.vault.isVisible(path) && this.options.vault.facts(path, false) !== undefined;
	}

	private async noteText(path: string): Promise<string | undefined> {
		const text = await this.options.vault.readText(path);
		if (text === undefined) return undefined;
		const capped = capText(text, 0, this.options.textCap);
		return capped.note ? `${capped.text}\n\n(${capped.note}; read the rest with read_note "${path}")` : capped.text;
	}

	private overview(): string {
		const { vault } = this.options;
		const paths = vault.notePaths();
		const folders = new Map<string, number>();
		const tags = new Map<string, Set<string>>();
		for (const path of paths) {
			const slash = path.indexOf("/");
			const folder = slash < 0 ? "(vault root)" : path.slice(0, slash);
			folders.set(folder, (folders.get(folder) ?? 0) + 1);
			for (const tag of vault.tagsOf(path) ?? []) {
				const key = tag.tag.toLowerCase();
				let notes = tags.get(key);
				if (!notes) tags.set(key, (notes = new Set()));
				notes.add(path);
			}
		}
		const byCount = <T>(entries: [string, T][], count: (value: T) => number): [string, number][] =>
			entries
				.map(([key, value]): [string, number] => [key, count(value)])
				.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
		const topFolders = byCount([...folders], (count) => count);
		const topTags = byCount([...tags], (notes) => notes.size);
		const lines = [
			`# Vault "${this.options.vaultName}"`,
			"",
			`${paths.length} note${paths.length === 1 ? "" : "s"} in ${folders.size} top-level folder${folders.size === 1 ? "" : "s"}.`,
			"",
		];
		lines.push(
			"## Top-level folders (notes)",
			...topFolders.slice(0, LISTED_FOLDERS).map(([folder, count]) => `- ${folder} (${count})`),
		);
		if (topFolders.length > LISTED_FOLDERS) lines.push(`- … and ${topFolders.length - LISTED_FOLDERS} more`);
		lines.push("", "## Tags (notes)");
		if (topTags.length === 0) lines.push("No tags.");
		else lines.push(...topTags.slice(0, LISTED_TAGS).map(([tag, count]) => `- #${tag} (${count})`));
		if (topTags.length > LISTED_TAGS)
			lines.push(`- … and ${topTags.length - LISTED_TAGS} more (the tags tool lists them all)`);
		return lines.join("\n");
	}
}
