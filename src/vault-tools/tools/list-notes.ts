import type { JsonObject } from "../../protocol/json-rpc";
import type { ToolDefinition } from "../../protocol/mcp-types";
import { ToolArgumentError } from "../../protocol/tool-arguments";
import {
	READ_ONLY,
	defineVaultTool,
	page,
	readCursor,
	readLimit,
	textAnswer,
	type VaultToolEnvironment,
} from "../kit/tool-kit";
import { readFolder } from "./search";

export function createListNotesTool(env: VaultToolEnvironment): ToolDefinition {
	return defineVaultTool(
		{
			name: "list_notes",
			description: "List the vault's notes (paths, sorted), all or under a folder. Paged.",
			properties: {
				folder: { type: "string" },
				limit: { type: "integer", minimum: 1, maximum: 100 },
				cursor: { type: "string" },
			},
			annotations: READ_ONLY,
			async run(args: JsonObject) {
				const folder = readFolder(args.folder);
				const limit = readLimit(args);
				const cursorKey = JSON.stringify(["list_notes", folder]);
				const offset = readCursor(args, cursorKey);
				const notes = env.vault.notePaths().filter((path) => folder === "" || path.startsWith(`${folder}/`));
				if (folder !== "" && notes.length === 0)
					throw new ToolArgumentError(`no notes under folder "${folder}"`);
				const shown = page(notes, offset, limit, cursorKey, "notes");
				return textAnswer([...shown.items, `(${shown.footer.replace(/\.$/, "")})`]);
			},
		},
		env,
	);
}
