import { Component } from "obsidian";
import type { MessageImage, OfferedCommand } from "../../agent/agent-session";
import { ImageTray, type FilePathOf } from "./image-tray";
import type { MentionCandidate, PanelVault, VaultImageChoice } from "./panel-vault";

/** `@word` tokens typed by hand: each names a note (with or without `.md`) or a folder, or nothing. */
function typedMentions(text: string): string[] {
	return [...text.matchAll(/(?:^|\s)@([^\s@]+)/g)].flatMap((match) => {
		// Punctuation after a path ends a sentence, not the path.
		const token = (match[1] ?? "").replace(/[.,;:!?)\]"']+$/, "");
		return token.endsWith(".md") ? [token] : [token, `${token}.md`];
	});
}

/** How many suggestions the `@` and `/` lists show at once. */
const MAX_SUGGESTIONS = 12;

interface Suggestion {
	label: string;
	detail: string;
	/** What replaces the typed trigger (`@query` or `/query`). */
	insert: string;
}

interface Trigger {
	kind: "@" | "/";
	/** Where the trigger character stands in the text. */
	at: number;
	query: string;
}

/**
 * The message box: Enter sends, Shift+Enter starts a new line; `@` completes the vault's public notes and folders,
 * `/` the CLI's slash commands; a note dragged in from the file explorer is mentioned. Mentions are `@path` in the
 * text and are sent as attachments while they are still in it; an `@path` typed by hand is attached too when it
 * names a note or folder the panel may attach. Either way the panel reads the note (the CLI never reads a mention).
 * An image pasted, or dropped from the system or the file explorer, waits as a chip above the box (`ImageTray`) and
 * goes with the next message; Backspace in an empty box takes the last one off.
 */
export class MessageInput extends Component {
	readonly textarea: HTMLTextAreaElement;
	/** The row of the box and its Send button. */
	readonly row: HTMLElement;
	readonly images: ImageTray;
	private readonly sendButton: HTMLButtonElement;
	private readonly suggestEl: HTMLElement;
	private suggestions: Suggestion[] = [];
	private selected = 0;
	private trigger: Trigger | undefined;
	/** Candidates read once per `@`, not per key. */
	private candidates: MentionCandidate[] | undefined;
	private readonly mentioned = new Set<string>();
	slashCommands: readonly OfferedCommand[] = [];

	constructor(
		parent: HTMLElement,
		private readonly vault: PanelVault,
		private readonly onSend: (text: string, mentions: string[], images: MessageImage[]) => void,
		pathOf?: FilePathOf,
	) {
		super();
		const box = parent.createDiv({ cls: "ccb-agent-input" });
		this.row = box;
		this.suggestEl = box.createDiv({ cls: ["ccb-agent-suggest", "is-hidden"] });
		this.suggestEl.setAttribute("role", "listbox");
		this.images = this.addChild(new ImageTray(box, vault, pathOf, () => this.focus()));
		this.textarea = box.createEl("textarea", {
			cls: "ccb-agent-textarea",
			attr: {
				rows: 3,
				placeholder: "Message Claude (@ for notes, / for commands; paste or drop images)",
				"aria-label": "Message to Claude",
			},
		});
		this.sendButton = box.createEl("button", {
			cls: ["mod-cta", "ccb-agent-send"],
			text: "Send",
			attr: { "aria-label": "Send the message" },
		});
	}

	override onload(): void {
		this.registerDomEvent(this.textarea, "keydown", (event) => this.keydown(event));
		this.registerDomEvent(this.sendButton, "click", () => this.send());
		this.registerDomEvent(this.textarea, "input", () => this.refreshSuggestions());
		this.registerDomEvent(this.textarea, "dragover", (event) => event.preventDefault());
		this.registerDomEvent(this.textarea, "drop", (event) => this.drop(event));
		this.registerDomEvent(this.textarea, "paste", (event) => this.paste(event));
	}

	/** Images of the vault to send with the next message (the active note's embeds); a refused one says why. */
	addImages(choices: readonly VaultImageChoice[]): void {
		this.images.addChoices(choices);
	}

	/** Images sent with a message before, back in the tray to send again (a rewound message). */
	restoreImages(images: readonly MessageImage[]): void {
		this.images.addSent(images);
	}

	/** The suggestions shown now (labels). */
	get shownSuggestions(): string[] {
		return this.suggestions.map((suggestion) => suggestion.label);
	}

	focus(): void {
		this.textarea.focus();
	}

	private keydown(event: KeyboardEvent): void {
		if (event.isComposing) return;
		if (this.suggestions.length > 0) {
			if (event.key === "ArrowDown" || event.key === "ArrowUp") {
				event.preventDefault();
				this.selected =
					(this.selected + (event.key === "ArrowDown" ? 1 : this.suggestions.length - 1)) %
					this.suggestions.length;
				this.drawSuggestions();
				return;
			}
			if (event.key === "Enter" || event.key === "Tab") {
				event.preventDefault();
				this.pick(this.selected);
				return;
			}
			if (event.key === "Escape") {
				event.preventDefault();
				this.closeSuggestions();
				return;
			}
		}
		if (event.key === "Enter" && !event.shiftKey) {
			event.preventDefault();
			this.send();
			return;
		}
		if (event.key === "Backspace" && this.textarea.value === "" && this.images.removeLast()) event.preventDefault();
	}

	private send(): void {
		const text = this.textarea.value.trim();
		if (text === "" && this.images.names.length === 0) return;
		const picked = [...this.mentioned].filter((path) => text.includes(`@${path}`));
		const mentions = [...new Set([...picked, ...typedMentions(text)])].filter((path) => this.vault.mayAttach(path));
		this.textarea.value = "";
		this.mentioned.clear();
		this.closeSuggestions();
		this.onSend(text, mentions, this.images.take());
	}

	/** Adds `@path ` at the cursor (a dropped note). */
	mention(path: string): void {
		const { value } = this.textarea;
		const at = this.cursor();
		const before = value.slice(0, at);
		const spacer = before === "" || /\s$/.test(before) ? "" : " ";
		this.textarea.value = `${before}${spacer}@${path} ${value.slice(at)}`;
		this.mentioned.add(path);
	}

	/** Files from the system become images (or, for a note of the vault, a mention); a vault link an image or a note. */
	private drop(event: DragEvent): void {
		const files = [...(event.dataTransfer?.files ?? [])];
		if (files.length > 0) {
			event.preventDefault();
			void this.images.addFiles(files, (path) => this.mentionIfAllowed(path));
			return;
		}
		const text = event.dataTransfer?.getData("text/plain") ?? "";
		const image = this.vault.droppedImage(text);
		if (image !== undefined) {
			event.preventDefault();
			this.images.addChoices([image]);
			return;
		}
		const path = this.vault.droppedNote(text);
		if (path === undefined) return;
		event.preventDefault();
		this.mention(path);
	}

	/** A pasted file (a screenshot, a copied image file) waits as an image; pasted text is left to the box. */
	private paste(event: ClipboardEvent): void {
		const files = [...(event.clipboardData?.files ?? [])];
		if (files.length === 0) return;
		event.preventDefault();
		void this.images.addFiles(files, (path) => this.mentionIfAllowed(path));
	}

	private mentionIfAllowed(path: string): void {
		if (this.vault.mayAttach(path)) this.mention(path);
	}

	private cursor(): number {
		const position = this.textarea.selectionStart;
		return typeof position === "number" ? position : this.textarea.value.length;
	}

	private currentTrigger(): Trigger | undefined {
		const before = this.textarea.value.slice(0, this.cursor());
		const mention = /(^|\s)@([^\s@]*)$/.exec(before);
		if (mention) return { kind: "@", at: before.length - (mention[2]?.length ?? 0) - 1, query: mention[2] ?? "" };
		const slash = /^\/(\S*)$/.exec(before);
		if (slash) return { kind: "/", at: 0, query: slash[1] ?? "" };
		return undefined;
	}

	private refreshSuggestions(): void {
		const trigger = this.currentTrigger();
		this.trigger = trigger;
		if (!trigger) {
			this.candidates = undefined;
			this.closeSuggestions();
			return;
		}
		const query = trigger.query.toLowerCase();
		if (trigger.kind === "@") {
			this.candidates ??= this.vault.mentionCandidates();
			this.suggestions = this.candidates
				.filter((candidate) => candidate.path.toLowerCase().includes(query))
				.slice(0, MAX_SUGGESTIONS)
				.map((candidate) => ({
					label: candidate.path,
					detail: candidate.kind === "folder" ? "Folder" : "Note",
					insert: `@${candidate.path} `,
				}));
		} else {
			this.suggestions = this.slashCommands
				.filter((command) => command.name.toLowerCase().startsWith(query))
				.slice(0, MAX_SUGGESTIONS)
				.map((command) => ({
					label: `/${command.name}`,
					detail: command.description === "" ? "Command" : command.description,
					insert: `/${command.name} `,
				}));
		}
		this.selected = 0;
		this.drawSuggestions();
	}

	private pick(index: number): void {
		const suggestion = this.suggestions[index];
		const trigger = this.trigger;
		if (!suggestion || !trigger) return;
		const { value } = this.textarea;
		const end = this.cursor();
		this.textarea.value = value.slice(0, trigger.at) + suggestion.insert + value.slice(end);
		if (trigger.kind === "@") this.mentioned.add(suggestion.insert.slice(1).trimEnd());
		this.closeSuggestions();
		this.textarea.focus();
	}

	private closeSuggestions(): void {
		this.suggestions = [];
		this.trigger = undefined;
		this.drawSuggestions();
	}

	private drawSuggestions(): void {
		this.suggestEl.empty();
		this.suggestEl.toggleClass("is-hidden", this.suggestions.length === 0);
		this.suggestions.forEach((suggestion, index) => {
			const item = this.suggestEl.createDiv({
				cls: ["ccb-agent-suggestion", ...(index === this.selected ? ["is-selected"] : [])],
			});
			item.setAttribute("role", "option");
			item.createSpan({ cls: "ccb-agent-suggestion-label", text: suggestion.label });
			item.createSpan({ cls: "ccb-agent-suggestion-detail", text: suggestion.detail });
			item.addEventListener("mousedown", (event) => {
				event.preventDefault();
				this.pick(index);
			});
		});
	}
}
