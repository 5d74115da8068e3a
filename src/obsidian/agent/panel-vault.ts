import { FileSystemAdapter, TFile, TFolder, normalizePath, type App } from "obsidian";
import { hasImageExtension, imageRefusalWords, MAX_IMAGE_BYTES } from "../../agent/engine/image-content";

/** A note or folder the `@` list may offer. */
export interface MentionCandidate {
	path: string;
	kind: "note" | "folder";
}

/** An image file of the vault the panel may send, and the address its thumbnail loads from. */
export interface VaultImage {
	/** Vault path: the engine reads it when the message is sent, through the privacy boundary. */
	path: string;
	name: string;
	thumbnail: string;
}

/** What the panel makes of an image file of the vault: one to attach, or why not, in the user's words. */
export type VaultImageChoice = { image: VaultImage } | { refused: string };

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
	/** The image a dropped link, `obsidian://open` URL or vault path names; undefined when it names no image file. */
	droppedImage(text: string): VaultImageChoice | undefined;
	/** The images a note embeds (`![[photo.png]]`, `![](photo.png)`), each judged, in the note's order, once each. */
	embeddedImages(notePath: string): VaultImageChoice[];
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
		const file = this.droppedFile(text);
		return file && this.mayAttach(file.path) ? file.path : undefined;
	}

	droppedImage(text: string): VaultImageChoice | undefined {
		const file = this.droppedFile(text);
		return file && hasImageExtension(file.path) ? this.imageChoice(file.path) : undefined;
	}

	embeddedImages(notePath: string): VaultImageChoice[] {
		const seen = new Set<string>();
		return (this.app.metadataCache.getCache(notePath)?.embeds ?? []).flatMap((embed) => {
			const file = this.app.metadataCache.getFirstLinkpathDest(embed.link.split("#")[0] ?? "", notePath);
			if (!file || !hasImageExtension(file.path) || seen.has(file.path)) return [];
			seen.add(file.path);
			return [this.imageChoice(file.path)];
		});
	}

	/** An image file of the vault, judged by the privacy boundary before anything is shown or read of it. */
	private imageChoice(path: string): VaultImageChoice {
		const name = path.slice(path.lastIndexOf("/") + 1);
		const privacy = this.privacy();
		if (privacy === undefined)
			return {
				refused: `“${name}” is not sent: while the bridge is off, the panel cannot tell whether it is private.`,
			};
		if (privacy.hidesPath(path)) return { refused: imageRefusalWords(name, "private") };
		const file = this.app.vault.getFileByPath(path);
		if (!file) return { refused: imageRefusalWords(name, "missing") };
		if (file.stat.size > MAX_IMAGE_BYTES) return { refused: imageRefusalWords(name, "too-large", file.stat.size) };
		return { image: { path, name, thumbnail: this.app.vault.getResourcePath(file) } };
	}

	/** The file a dropped link, `obsidian://open` URL or vault path names. */
	private droppedFile(text: string): TFile | undefined {
		const value = text.trim().split("\n")[0]?.trim() ?? "";
		let linkpath: string | undefined;
		if (value.startsWith("obsidian://")) {
			try {
				linkpath = new URL(value).searchParams.get("file") ?? undefined;
			} catch {
				return undefined;
			}
		} else {
			linkpath =
				/^!?\[\[([^\]|#]+)/.exec(value)?.[1] ??
				(value.endsWith(".md") || hasImageExtension(value) ? value : undefined);
		}
		if (linkpath === undefined) return undefined;
		return (
			this.app.vault.getFileByPath(linkpath) ??
			this.app.vault.getFileByPath(`${linkpath}.md`) ??
			this.app.metadataCache.getFirstLinkpathDest(linkpath, "") ??
			undefined
		);
	}
}
