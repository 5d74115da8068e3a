import type { ToolDefinition } from "../../protocol/mcp-types";
import { READ_ONLY, capText, defineVaultTool, textAnswer, type VaultToolEnvironment } from "../kit/tool-kit";

export function createActiveNoteTool(env: VaultToolEnvironment): ToolDefinition {
	return defineVaultTool(
		{
			name: "active_note",
			description: "The note open in Obsidian and the user's selection in it (lines 1-based), if any.",
			properties: {},
			annotations: READ_ONLY,
			async run() {
				const source = env.activeNote;
				if (!source) return textAnswer(["No editor is connected to this vault, so there is no open note."]);
				const active = await source.current();
				if (!active || !env.vault.isVisible(active.path) || !env.vault.notePaths().includes(active.path))
					return textAnswer(["No note is open."]);
				const selection = active.selection;
				if (!selection) return textAnswer([`Open: ${active.path}`]);
				const { from, to } = selection;
				const lines = [`Open: ${active.path}`];
				if (selection.text === "") {
					lines.push(`Cursor: line ${from.line + 1}, column ${from.character + 1}; nothing selected.`);
				} else {
					const capped = capText(selection.text, 0, env.textCap);
					lines.push(
						`Selection: line ${from.line + 1}, column ${from.character + 1} to line ${to.line + 1}, column ${to.character + 1}${capped.note ? ` (${capped.note.replace(/; continue.*$/, "")}; use read_note for the rest)` : ""}:`,
						capped.text,
					);
				}
				return textAnswer(lines);
			},
		},
		env,
	);
}
