import { readdir, readFile, stat } from "node:fs/promises";
import type { MessageAttachment } from "../agent-session";
import type { AttachmentResolver, ResolvedAttachment, ResolvedImage } from "./attachment-resolver";
import { imageBytesRefusal, MAX_IMAGE_BYTES } from "./image-content";
import type { VaultPrivacy } from "../../vault/privacy/vault-privacy";
import { VaultPathError, type VaultLocation } from "../../vault/vault-paths";

/** A file larger than this is named, not read (the prompt keeps at most `MAX_ATTACHED_CHARS` of a note anyway). */
export const MAX_ATTACHED_FILE_BYTES = 4 * 1024 * 1024;
/** The most notes a folder attachment lists. */
export const MAX_FOLDER_NOTES = 200;

/** What a path names on disk, following a symbolic link; files with their size. */
export type DiskEntry = { kind: "file"; size: number } | { kind: "folder" } | { kind: "none" };

/** One entry of a folder as the disk lists it (a symbolic link is neither a file nor a folder here). */
export interface FolderEntry {
	name: string;
	kind: "file" | "folder" | "link" | "other";
}

export interface PanelAttachmentsPorts {
	entry?: (absolutePath: string) => Promise<DiskEntry>;
	list?: (absoluteFolder: string) => Promise<FolderEntry[]>;
	/** Reads a file's text (undefined when there is none); handed to the boundary's reader, which never reads a private file. */
	readText: (absolutePath: string) => Promise<string | undefined>;
	/** Reads a file's bytes (an image), through the same boundary; default: from disk. */
	readBytes?: (absolutePath: string) => Promise<Uint8Array | undefined>;
}

/**
 * The panel's attachments read through the vault's one privacy boundary, never by the CLI: a path is resolved as
 * every wire path is (outside the vault, also through a symbolic link, is nothing); a note is judged by
 * `VaultPrivacy.hides` (folders, tags, hidden, and where a link leads) and read by the boundary's reader, which
 * never reads a private file; a folder is judged by its path and its target, and lists only the notes the same
 * judgement lets through (a link by where it leads; linked folders are not followed).
 */
export class PanelAttachments implements AttachmentResolver {
	private readonly entry: (absolutePath: string) => Promise<DiskEntry>;
	private readonly list: (absoluteFolder: string) => Promise<FolderEntry[]>;
	private readonly readPublicText: (absolutePath: string) => Promise<string | undefined>;
	private readonly readPublicBytes: (absolutePath: string) => Promise<Uint8Array | undefined>;

	constructor(
		private readonly privacy: VaultPrivacy,
		ports: PanelAttachmentsPorts,
	) {
		this.entry = ports.entry ?? diskEntry;
		this.list = ports.list ?? folderEntries;
		this.readPublicText = privacy.textReader(ports.readText);
		this.readPublicBytes = privacy.fileReader(ports.readBytes ?? bytesIfExists);
	}

	/**
	 * An image of the vault, judged as a note is (`VaultPrivacy.hides`: folders, hidden, where a link leads) and read
	 * by the boundary's reader; a private one is refused without being read, and so is one too large to send.
	 */
	async resolveImage(path: string): Promise<ResolvedImage> {
		const location = this.locate(path);
		if (location === undefined) return { kind: "refused", refusal: "missing" };
		if (this.privacy.hides(location)) return { kind: "refused", refusal: "private" };
		const entry = await this.entry(location.absolute);
		if (entry.kind !== "file") return { kind: "refused", refusal: "missing" };
		if (entry.size > MAX_IMAGE_BYTES) return { kind: "refused", refusal: "too-large", size: entry.size };
		const bytes = await this.readPublicBytes(location.absolute);
		if (bytes === undefined) return { kind: "refused", refusal: "missing" };
		const refusal = imageBytesRefusal(bytes);
		return refusal === undefined ? { kind: "image", bytes } : { kind: "refused", refusal, size: bytes.byteLength };
	}

	async resolve(attachment: MessageAttachment): Promise<ResolvedAttachment | undefined> {
		const location = this.locate(attachment.path);
		if (location === undefined) return undefined;
		const entry = await this.entry(location.absolute);
		if (entry.kind === "folder") return this.privacy.hidesFolder(location) ? undefined : this.folder(location);
		if (entry.kind === "none" || this.privacy.hides(location)) return undefined;
		if (entry.size > MAX_ATTACHED_FILE_BYTES) return { kind: "file", path: location.relative, reason: "too-large" };
		const text = await this.readPublicText(location.absolute);
		if (text === undefined) return undefined;
		if (text.includes("\0")) return { kind: "file", path: location.relative, reason: "not-text" };
		return {
			kind: "note",
			path: location.relative,
			text,
			...(attachment.lines !== undefined && { lines: attachment.lines }),
		};
	}

	/** The folder's visible notes, breadth first and sorted, at most `MAX_FOLDER_NOTES`. */
	private async folder(location: VaultLocation): Promise<ResolvedAttachment> {
		const notes: string[] = [];
		const folders = [location.relative];
		for (let folder = folders.shift(); folder !== undefined; folder = folders.shift()) {
			const entries = await this.list(this.privacy.paths.toAbsolute(folder)).catch(() => []);
			for (const entry of [...entries].sort((a, b) => a.name.localeCompare(b.name))) {
				const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
				if (entry.kind === "folder") {
					if (!this.privacy.hidesFolder(path)) folders.push(path);
					continue;
				}
				if (entry.kind === "other" || !(await this.isVisibleFile(path, entry.kind === "link"))) continue;
				if (notes.length === MAX_FOLDER_NOTES)
					return { kind: "folder", path: location.relative, notes, complete: false };
				notes.push(path);
			}
		}
		return { kind: "folder", path: location.relative, notes, complete: true };
	}

	/** A file the boundary lets through; a link only when it leads to a file (a linked folder is not followed). */
	private async isVisibleFile(path: string, link: boolean): Promise<boolean> {
		const location = this.locate(path);
		if (location === undefined || this.privacy.hides(location)) return false;
		return !link || (await this.entry(location.absolute)).kind === "file";
	}

	private locate(path: string): VaultLocation | undefined {
		try {
			return this.privacy.paths.resolve(path);
		} catch (error) {
			if (error instanceof VaultPathError) return undefined;
			throw error;
		}
	}
}

async function bytesIfExists(absolutePath: string): Promise<Uint8Array | undefined> {
	try {
		return new Uint8Array(await readFile(absolutePath));
	} catch {
		return undefined;
	}
}

async function diskEntry(absolutePath: string): Promise<DiskEntry> {
	try {
		const info = await stat(absolutePath);
		if (info.isDirectory()) return { kind: "folder" };
		return info.isFile() ? { kind: "file", size: info.size } : { kind: "none" };
	} catch {
		return { kind: "none" };
	}
}

async function folderEntries(absoluteFolder: string): Promise<FolderEntry[]> {
	const entries = await readdir(absoluteFolder, { withFileTypes: true });
	return entries.map((entry) => ({
		name: entry.name,
		kind: entry.isSymbolicLink() ? "link" : entry.isDirectory() ? "folder" : entry.isFile() ? "file" : "other",
	}));
}
