import { FileSystemAdapter, TFile, TFolder, normalizePath, type App } from "obsidian";

/** A note or folder the `@` list may offer. */
export interface MentionCandidate {
	path: string;
	kind: "note" | "folder";
}

/**
 * The privacy decisions the panel needs, as the vault's one boundary (VaultPrivacy) answers them: paths are
 * resolved, so a symbolic link is judged by where it leads (Obsidian lists a link under its own path).
 */
export interface PanelPrivacy {
	hidesPath(path: string): boolean;
	hidesFolder(path: string): boolean;
}

/** The vault as the panel may show it to Claude: only notes the privacy boundary lets through. */
export interface PanelVault {
	/** Public notes and the folders that hold them; nothing while the boundary is not there (fail closed). */
	mentionCandidates(): MentionCandidate[];
	/** Whether a note or folder may be attached or mentioned. */
	mayAttach(path: string): boolean;
	/** The note a dropped link or `obsidian://open` URL names, when it is one that may be attached. */
	droppedNote(text: string): string | undefined;
	/** A path Claude Code named (absolute, or relative to the vault) as a vault path; undefined outside the vault. */
	vaultPath(path: string): string | undefined;
}

/**
 * The panel's vault over Obsidian's file list and the bridge's privacy boundary (`privacy()` is undefined while the
 * bridge is off: then nothing is offered or attached, as nothing can be judged).
 */
export class ObsidianPanelVault implements PanelVault {
	constructor(
		private readonly app: App,
		private readonly privacy: () => PanelPrivacy | undefined,
	) {}

	mentionCandidates(): MentionCandidate[] {
		const privacy = this.privacy();
		if (!privacy) return [];
		const notes: MentionCandidate[] = [];
		const folders = new Set<string>();
		for (const file of this.app.vault.getMarkdownFiles()) {
			if (privacy.hidesPath(file.path)) continue;
			notes.push({ path: file.path, kind: "note" });
			for (let cut = file.path.lastIndexOf("/"); cut > 0; cut = file.path.lastIndexOf("/", cut - 1))
				folders.add(file.path.slice(0, cut));
		}
		const shownFolders = [...folders].filter((folder) => !privacy.hidesFolder(folder)).sort();
		return [
			...notes.sort((a, b) => a.path.localeCompare(b.path)),
			...shownFolders.map((path) => ({ path, kind: "folder" as const })),
		];
	}

	mayAttach(path: string): boolean {
		const privacy = this.privacy();
		if (privacy === undefined || path === "") return false;
		const found = this.app.vault.getAbstractFileByPath(path);
		if (found instanceof TFile) return !privacy.hidesPath(path);
		return found instanceof TFolder && !privacy.hidesFolder(path);
	}

	vaultPath(path: string): string | undefined {
		const adapter = this.app.vault.adapter;
		const root = adapter instanceof FileSystemAdapter ? adapter.getBasePath().replace(/\\/g, "/") : undefined;
		const given = path.replace(/\\/g, "/");
		let relative = given;
		if (root !== undefined && (given === root || given.startsWith(`${root.replace(/\/$/, "")}/`)))
			relative = given.slice(root.replace(/\/$/, "").length + 1);
		else if (given.startsWith("/") || /^[A-Za-z]:\//.test(given)) return undefined;
		if (relative === "" || relative.split("/").includes("..")) return undefined;
		return normalizePath(relative);
	}

	droppedNote(text: string): string | undefined {
		const value = text.trim().split("\n")[0]?.trim() ?? "";
		let linkpath: string | undefined;
		if (value.startsWith("obsidian://")) {
			try {
				linkpath = new URL(value).searchParams.get("file") ?? undefined;
			} catch {
				return undefined;
			}
		} else {
			linkpath = /^!?\[\[([^\]|#]+)/.exec(value)?.[1] ?? (value.endsWith(".md") ? value : undefined);
		}
		if (linkpath === undefined) return undefined;
		const file =
			this.app.vault.getFileByPath(linkpath) ??
			this.app.vault.getFileByPath(`${linkpath}.md`) ??
			this.app.metadataCache.getFirstLinkpathDest(linkpath, "");
		return file && this.mayAttach(file.path) ? file.path : undefined;
	}
}
