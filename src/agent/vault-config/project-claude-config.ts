import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, posix, relative, sep } from "node:path";
import {
	describeMcpServers,
	describeSettings,
	isRecord,
	quoted,
	type ConfigItem,
	type ConfigItemKind,
} from "./claude-settings-words";
import { VaultConfigFiles, type VaultConfigFile } from "./vault-config-files";

/**
 * The vault's own Claude Code configuration, as the CLI would load it in a trusted folder: what it would run, send,
 * allow or add to every conversation (one line each), and a fingerprint of all of it, so that trust applies to
 * exactly what the user saw and a changed configuration asks again.
 */
export interface ProjectClaudeConfig {
	/** Empty: the vault has no Claude Code configuration of its own. */
	items: readonly ConfigItem[];
	/** SHA-256 (hex) of every file read, its state, and every folder's listing. */
	fingerprint: string;
}

export const SETTINGS_FILES = [".claude/settings.json", ".claude/settings.local.json"] as const;
export const MCP_FILE = ".mcp.json";
export const INSTRUCTION_FILES = ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"] as const;

/** Folders whose files the CLI loads in a trusted folder (and only then: seen with 2.1.330 and `--setting-sources user`). */
const FOLDERS: readonly { path: string; kind: ConfigItemKind; adds: string; entryFile?: string }[] = [
	{ path: ".claude/rules", kind: "instructions", adds: "Adds these instruction files to every conversation" },
	{ path: ".claude/commands", kind: "changes", adds: "Adds these commands" },
	{ path: ".claude/agents", kind: "changes", adds: "Adds these helper agents" },
	{
		path: ".claude/skills",
		kind: "runs",
		adds: "Adds these skills, which may come with programs for Claude to run",
		entryFile: "SKILL.md",
	},
	{ path: ".claude/output-styles", kind: "changes", adds: "Adds these reply styles" },
];

/** CLAUDE.md imports nest at most this deep (the CLI's own limit is five hops). */
const IMPORT_DEPTH = 5;
const IMPORT_LIMIT = 50;

/** Reads and describes the configuration of the vault at `vaultRoot`; never throws for what the files hold. */
export async function readProjectClaudeConfig(vaultRoot: string): Promise<ProjectClaudeConfig> {
	const files = new VaultConfigFiles(vaultRoot);
	const items: ConfigItem[] = [];
	const fingerprint: string[] = [];
	const read = async (path: string): Promise<VaultConfigFile> => {
		const file = await files.read(path);
		fingerprint.push(`${path}\0${stateOf(file)}`);
		if (file.kind === "unreadable")
			items.push({ kind: "unreadable", text: `${path} ${file.problem}.`, file: path });
		return file;
	};

	for (const path of SETTINGS_FILES) {
		const json = parsed(path, await read(path), items);
		if (json !== undefined) items.push(...describeSettings(path, json));
	}
	const mcp = parsed(MCP_FILE, await read(MCP_FILE), items);
	if (mcp !== undefined) items.push(...describeMcpServers(MCP_FILE, mcp));
	for (const path of INSTRUCTION_FILES) {
		const file = await read(path);
		if (file.kind !== "text") continue;
		items.push({ kind: "instructions", text: `Adds the text of ${path} to every conversation.`, file: path });
		items.push(...(await describeImports(files, path, file.text)));
	}
	for (const folder of FOLDERS) items.push(...(await describeFolder(files, folder, fingerprint, items)));
	return { items, fingerprint: createHash("sha256").update(fingerprint.join("\n")).digest("hex") };
}

function stateOf(file: VaultConfigFile): string {
	switch (file.kind) {
		case "missing":
			return "missing";
		case "unreadable":
			return `unreadable ${file.problem}`;
		case "text":
			return createHash("sha256").update(file.text).digest("hex");
	}
}

/** The file's JSON object, or undefined (absent, or described as unreadable). */
function parsed(path: string, file: VaultConfigFile, items: ConfigItem[]): Record<string, unknown> | undefined {
	if (file.kind !== "text") return undefined;
	try {
		const value: unknown = JSON.parse(file.text);
		if (isRecord(value)) return value;
	} catch {
		// Described below, like any other shape the CLI would not read as settings.
	}
	items.push({
		kind: "unreadable",
		text: `${path} is not a settings file Claude Code can read (not a JSON object).`,
		file: path,
	});
	return undefined;
}

async function describeFolder(
	files: VaultConfigFiles,
	folder: (typeof FOLDERS)[number],
	fingerprint: string[],
	items: ConfigItem[],
): Promise<ConfigItem[]> {
	const listing = await files.list(folder.path);
	if (listing.kind === "missing") return [];
	if (listing.kind !== "folder") {
		fingerprint.push(`${folder.path}/\0${stateOf(listing)}`);
		return listing.kind === "unreadable"
			? [{ kind: "unreadable", text: `${folder.path} ${listing.problem}.`, file: folder.path }]
			: [];
	}
	fingerprint.push(`${folder.path}/\0${listing.names.join("\0")}${listing.truncated ? "\0…" : ""}`);
	if (listing.names.length === 0) return [];
	for (const name of listing.names) {
		const entry = `${folder.path}/${name}`;
		const file = await files.read(
			folder.entryFile !== undefined && !name.endsWith(".md") ? `${entry}/${folder.entryFile}` : entry,
		);
		fingerprint.push(`${entry}\0${stateOf(file)}`);
		if (file.kind === "unreadable" && !file.problem.startsWith("is not a file"))
			items.push({ kind: "unreadable", text: `${entry} ${file.problem}.`, file: entry });
	}
	const names = listing.names.map((name) => name.replace(/\.md$/, ""));
	return [
		{
			kind: folder.kind,
			text: `${folder.adds}: ${names.map(quoted).join(", ")}${listing.truncated ? ", and more" : ""}.`,
			file: folder.path,
		},
	];
}

/**
 * The files a CLAUDE.md brings in with `@path` (relative to it, `~/` for the home folder, or absolute), and the
 * ones those bring in, as the CLI would: a private note imported this way reaches every prompt.
 */
async function describeImports(files: VaultConfigFiles, path: string, text: string): Promise<ConfigItem[]> {
	const items: ConfigItem[] = [];
	const seen = new Set<string>([join(files.vaultRoot, path)]);
	const visit = async (from: string, content: string, depth: number): Promise<void> => {
		for (const target of importsOf(content)) {
			if (seen.size > IMPORT_LIMIT) return;
			const absolute = target.startsWith("~/")
				? join(homedir(), target.slice(2))
				: isAbsolute(target)
					? target
					: join(files.vaultRoot, posix.dirname(from), target);
			if (seen.has(absolute) || !(await exists(absolute))) continue;
			seen.add(absolute);
			const inVault = await files.isInside(absolute);
			const shown = inVault ? relative(files.vaultRoot, absolute).split(sep).join("/") : absolute;
			items.push({
				kind: "instructions",
				text: inVault
					? `${path} brings in ${quoted(shown)} too.`
					: `${path} brings in ${quoted(shown)} too, from outside the vault.`,
				file: path,
			});
			if (!inVault || depth >= IMPORT_DEPTH) continue;
			const imported = await files.read(shown);
			if (imported.kind === "text") await visit(shown, imported.text, depth + 1);
		}
	};
	await visit(path, text, 1);
	return items;
}

/** `@path` mentions outside code, as the CLI's memory loader reads them (a space inside a path is `\ `). */
export function importsOf(markdown: string): string[] {
	const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
	const found: string[] = [];
	for (const match of prose.matchAll(/(?:^|\s)@((?:\\ |[^\s])+)/g)) {
		const target = (match[1] ?? "").replace(/\\ /g, " ");
		if (target !== "" && !target.startsWith("@")) found.push(target);
	}
	return found;
}

async function exists(path: string): Promise<boolean> {
	try {
		return (await stat(path)).isFile();
	} catch {
		return false;
	}
}
