import { Notice } from "obsidian";
import { describeError } from "../../shared/describe-error";

/** Puts the text on the clipboard, then shows `copied`: what was copied, and whether it holds a secret. */
export async function copyText(text: string, copied: string): Promise<void> {
	try {
		await navigator.clipboard.writeText(text);
		new Notice(copied);
	} catch (error) {
		new Notice(`Could not copy: ${describeError(error)}`);
	}
}

/** A shell command or JSON as a code block, with a copy button that shows `copied` once it is on the clipboard. */
export function commandBlock(container: HTMLElement, command: string, copied: string): HTMLElement {
	const block = container.createDiv({ cls: "ccb-command" });
	block.createEl("code", { text: command });
	const button = block.createEl("button", { cls: "ccb-command-copy", text: "Copy" });
	button.addEventListener("click", () => void copyText(command, copied));
	return block;
}
