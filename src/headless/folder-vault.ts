import { promises as fs, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { VaultFileEntry, VaultFilesPort } from "../bridge/vault-adapter";
import type { VaultPaths } from "../bridge/vault-paths";

/** A folder on disk as a vault: what the headless host serves instead of Obsidian's vault. */
export class FolderVault implements VaultFilesPort {
	constructor(private readonly paths: VaultPaths) {}

	list(): VaultFileEntry[] {
		const entries: VaultFileEntry[] = [];
		const walk = (relativeFolder: string): void => {
			const folder = relativeFolder === "" ? this.paths.root : join(this.paths.root, relativeFolder);
			for (const dirent of readdirSync(folder, { withFileTypes: true })) {
				if (dirent.name.startsWith(".")) continue;
				const relativePath = relativeFolder === "" ? dirent.name : `${relativeFolder}/${dirent.name}`;
				// Symlinked folders are not followed (no loops, nothing outside the vault listed).
				if (dirent.isDirectory()) walk(relativePath);
				else if (dirent.isFile()) entries.push({ path: relativePath, size: statSync(join(folder, dirent.name)).size });
			}
		};
		walk("");
		return entries;
	}

	async stat(relativePath: string): Promise<{ size: number } | undefined> {
		try {
			const stats = await fs.stat(this.paths.toAbsolute(relativePath));
			return stats.isFile() ? { size: stats.size } : undefined;
		} catch {
			return undefined;
		}
	}

	async readBytes(relativePath: string): Promise<Uint8Array> {
		return fs.readFile(this.paths.toAbsolute(relativePath));
	}

	readText(relativePath: string): string {
		return readFileSync(this.paths.toAbsolute(relativePath), "utf8");
	}

	/** Tags of a note: frontmatter `tags` (list or inline) and #tags in the text, as Obsidian counts them. */
	tagsOf(relativePath: string): string[] {
		if (!relativePath.endsWith(".md")) return [];
		let text: string;
		try {
			text = this.readText(relativePath);
		} catch {
			return [];
		}
		return [...frontmatterTags(text), ...inlineTags(text)];
	}
}

function frontmatterTags(text: string): string[] {
	const match = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
	if (!match?.[1]) return [];
	const lines = match[1].split(/\r?\n/);
	const tags: string[] = [];
	for (let i = 0; i < lines.length; i++) {
		const field = /^(?:tags|tag):\s*(.*)$/.exec(lines[i] ?? "");
		if (!field) continue;
		const inline = (field[1] ?? "").trim();
		if (inline !== "") {
			tags.push(...inline.replace(/^\[|\]$/g, "").split(/[,\s]+/).filter(Boolean));
		} else {
			for (let j = i + 1; j < lines.length && /^\s*-\s*/.test(lines[j] ?? ""); j++) tags.push((lines[j] ?? "").replace(/^\s*-\s*/, "").trim());
		}
	}
	return tags.map((tag) => tag.replace(/^["']|["']$/g, ""));
}

function inlineTags(text: string): string[] {
	const withoutCode = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
	return [...withoutCode.matchAll(/(?:^|\s)#([\p{L}\p{N}_/-]+)/gu)].map((match) => match[1] ?? "").filter((tag) => !/^\d+$/.test(tag));
}
