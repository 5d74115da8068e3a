import { Component } from "obsidian";
import type { MessageImage } from "../../agent/agent-session";
import {
	imageMediaType,
	imageRefusalWords,
	MAX_IMAGE_BYTES,
	MAX_IMAGES_PER_MESSAGE,
} from "../../agent/engine/image-content";
import type { PanelVault, VaultImageChoice } from "./panel-vault";

/** An image waiting to go with the next message, and the address of its thumbnail. */
interface WaitingImage {
	image: MessageImage;
	thumbnail: string;
	/** Frees the thumbnail's address (pasted bytes are shown from an object URL). */
	release?: () => void;
}

/**
 * Where a file handed to the panel (pasted or dropped from the system) lies on disk, when the app can tell: a file of
 * the vault is then judged by the privacy boundary like a vault image, never read as bytes. Electron before 32 puts
 * the path on the `File`; later ones answer `webUtils.getPathForFile`.
 */
export type FilePathOf = (file: File) => string | undefined;

/**
 * The images the next message carries, as removable thumbnail chips above the message box (the alt text is the file's
 * name; each chip's remove button is reachable by keyboard), and a line saying why an image was not added. Images
 * come from the vault (judged by the privacy boundary: a private one is refused with the reason, never read) or as
 * bytes from the clipboard or the system (checked by their signature and size).
 */
export class ImageTray extends Component {
	private readonly trayEl: HTMLElement;
	private readonly problemEl: HTMLElement;
	private waiting: WaitingImage[] = [];
	private problemText = "";

	constructor(
		parent: HTMLElement,
		private readonly vault: PanelVault,
		private readonly pathOf: FilePathOf = systemPathOf,
		/** Where the focus goes when a chip is removed (the message box). */
		private readonly refocus: () => void = () => undefined,
	) {
		super();
		this.trayEl = parent.createDiv({
			cls: ["ccb-agent-images", "is-hidden"],
			attr: { role: "list", "aria-label": "Images to send" },
		});
		this.problemEl = parent.createDiv({
			cls: ["ccb-agent-input-problem", "is-hidden"],
			attr: { role: "status", "aria-live": "polite" },
		});
	}

	override onunload(): void {
		this.clear();
	}

	/** The names of the images waiting, in order. */
	get names(): string[] {
		return this.waiting.map((waiting) => waiting.image.name);
	}

	/** Why the last images offered were not added (empty when all were). */
	get problem(): string {
		return this.problemText;
	}

	/** Images of the vault (a dropped link, the note's embeds): each added, or its refusal shown. */
	addChoices(choices: readonly VaultImageChoice[]): void {
		const problems: string[] = [];
		for (const choice of choices) {
			if ("refused" in choice) problems.push(choice.refused);
			else this.add({ name: choice.image.name, path: choice.image.path }, choice.image.thumbnail, problems);
		}
		this.finish(problems);
	}

	/**
	 * Files pasted or dropped from the system: a file inside the vault as a vault image (or, for a note, handed to
	 * `onNote`), any other file read as bytes and checked. Resolves when all are in.
	 */
	async addFiles(files: readonly File[], onNote?: (path: string) => void): Promise<void> {
		const problems: string[] = [];
		for (const file of files) {
			const systemPath = this.pathOf(file);
			const inVault = systemPath === undefined ? undefined : this.vault.vaultPath(systemPath);
			if (inVault !== undefined) {
				const choice = this.vault.droppedImage(inVault);
				if (choice === undefined && inVault.toLowerCase().endsWith(".md") && onNote) onNote(inVault);
				else if (choice === undefined) problems.push(imageRefusalWords(file.name, "not-image"));
				else if ("refused" in choice) problems.push(choice.refused);
				else this.add({ name: choice.image.name, path: choice.image.path }, choice.image.thumbnail, problems);
				continue;
			}
			const name = file.name === "" ? "Pasted image" : file.name;
			if (file.size > MAX_IMAGE_BYTES) {
				problems.push(imageRefusalWords(name, "too-large", file.size));
				continue;
			}
			const bytes = new Uint8Array(await file.arrayBuffer());
			const mediaType = imageMediaType(bytes);
			if (mediaType === undefined) {
				problems.push(imageRefusalWords(name, "not-image"));
				continue;
			}
			const url = URL.createObjectURL(new Blob([bytes], { type: mediaType }));
			if (!this.add({ name, bytes }, url, problems, () => URL.revokeObjectURL(url))) URL.revokeObjectURL(url);
		}
		this.finish(problems);
	}

	/**
	 * Images sent with a message before, back in the tray (a rewound message): a vault image is judged again by the
	 * privacy boundary as it stands now, a pasted one is checked again by its bytes.
	 */
	addSent(images: readonly MessageImage[]): void {
		const problems: string[] = [];
		for (const image of images) {
			if (image.path !== undefined) {
				const choice = this.vault.droppedImage(image.path);
				if (choice === undefined) problems.push(imageRefusalWords(image.name, "missing"));
				else if ("refused" in choice) problems.push(choice.refused);
				else this.add({ name: image.name, path: choice.image.path }, choice.image.thumbnail, problems);
				continue;
			}
			const mediaType = image.bytes === undefined ? undefined : imageMediaType(image.bytes);
			if (image.bytes === undefined || mediaType === undefined) {
				problems.push(imageRefusalWords(image.name, "not-image"));
				continue;
			}
			const url = URL.createObjectURL(new Blob([new Uint8Array(image.bytes)], { type: mediaType }));
			if (!this.add(image, url, problems, () => URL.revokeObjectURL(url))) URL.revokeObjectURL(url);
		}
		this.finish(problems);
	}

	/** The images for the message being sent; the tray is empty after. */
	take(): MessageImage[] {
		const images = this.waiting.map((waiting) => waiting.image);
		this.clear();
		return images;
	}

	/** Removes the last image (Backspace in an empty message box); false when there is none. */
	removeLast(): boolean {
		if (this.waiting.length === 0) return false;
		this.remove(this.waiting.length - 1);
		return true;
	}

	private add(image: MessageImage, thumbnail: string, problems: string[], release?: () => void): boolean {
		if (this.waiting.length >= MAX_IMAGES_PER_MESSAGE) {
			problems.push(imageRefusalWords(image.name, "too-many"));
			return false;
		}
		this.waiting.push({ image, thumbnail, ...(release && { release }) });
		return true;
	}

	private remove(index: number): void {
		const [gone] = this.waiting.splice(index, 1);
		gone?.release?.();
		this.draw();
	}

	private clear(): void {
		for (const waiting of this.waiting) waiting.release?.();
		this.waiting = [];
		this.finish([]);
	}

	private finish(problems: readonly string[]): void {
		this.problemText = problems.join(" ");
		this.problemEl.setText(this.problemText);
		this.problemEl.toggleClass("is-hidden", problems.length === 0);
		this.draw();
	}

	private draw(): void {
		this.trayEl.empty();
		this.trayEl.toggleClass("is-hidden", this.waiting.length === 0);
		this.waiting.forEach((waiting, index) => {
			const { name } = waiting.image;
			const chip = this.trayEl.createDiv({ cls: "ccb-agent-image-chip", attr: { role: "listitem" } });
			chip.createEl("img", { cls: "ccb-agent-image-thumb", attr: { src: waiting.thumbnail, alt: name } });
			chip.createSpan({ cls: "ccb-agent-image-name", text: name });
			chip.createEl("button", {
				cls: ["clickable-icon", "ccb-agent-image-remove"],
				text: "×",
				attr: { "aria-label": `Remove the image ${name}` },
			}).addEventListener("click", () => {
				this.remove(index);
				this.refocus();
			});
		});
	}
}

/** The system path of a pasted or dropped file, when Electron tells it (see `FilePathOf`). */
function systemPathOf(file: File): string | undefined {
	const legacy = (file as File & { path?: unknown }).path;
	if (typeof legacy === "string" && legacy !== "") return legacy;
	try {
		const host = window as unknown as { require?: (module: string) => unknown };
		const electron = host.require?.("electron") as
			{ webUtils?: { getPathForFile?: (file: File) => string } } | undefined;
		const found = electron?.webUtils?.getPathForFile?.(file);
		return typeof found === "string" && found !== "" ? found : undefined;
	} catch {
		return undefined;
	}
}
