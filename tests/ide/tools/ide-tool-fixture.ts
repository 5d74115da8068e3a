import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { JsonObject } from "../../../src/protocol/json-rpc";
import type { ToolDefinition, ToolResult } from "../../../src/protocol/mcp-types";
import type { VaultLocation } from "../../../src/vault/vault-paths";
import { VaultPaths } from "../../../src/vault/vault-paths";
import type {
	OpenEditor,
	OpenNoteOptions,
	SelectionSnapshot,
	WorkspacePort,
} from "../../../src/ide/workspace/workspace-port";
import { makeTempDir } from "../../helpers/temp-dir";

/** A temp folder vault with the given notes, and its `VaultPaths`. */
export function makeToolVault(notes: Record<string, string> = {}): {
	root: string;
	paths: VaultPaths;
	remove: () => void;
} {
	const temp = makeTempDir("ide-tools");
	for (const [path, text] of Object.entries(notes)) {
		mkdirSync(dirname(join(temp.path, path)), { recursive: true });
		writeFileSync(join(temp.path, path), text);
	}
	return { root: temp.path, paths: new VaultPaths(temp.path), remove: temp.remove };
}

/** A workspace in memory: notes open by vault path, each dirty or not; records what the tools asked it to do. */
export class FakeWorkspace implements WorkspacePort {
	readonly opened: { target: VaultLocation; options: OpenNoteOptions }[] = [];
	readonly saved: string[] = [];
	readonly editors: OpenEditor[] = [];
	readonly dirty = new Map<string, boolean>();
	selection: SelectionSnapshot | undefined;
	saveFailure: Error | undefined;

	constructor(readonly headlessNote?: string) {}

	currentSelection(): SelectionSnapshot | undefined {
		return this.selection;
	}

	openNote(target: VaultLocation, options: OpenNoteOptions): Promise<void> {
		this.opened.push({ target, options });
		return Promise.resolve();
	}

	openEditors(): OpenEditor[] {
		return this.editors;
	}

	isDirty(target: VaultLocation): Promise<boolean | undefined> {
		return Promise.resolve(this.dirty.get(target.relative));
	}

	save(target: VaultLocation): Promise<boolean> {
		if (this.saveFailure) return Promise.reject(this.saveFailure);
		if (!this.dirty.has(target.relative)) return Promise.resolve(false);
		this.saved.push(target.relative);
		this.dirty.set(target.relative, false);
		return Promise.resolve(true);
	}
}

/** Calls a tool as session 1 with a live signal. */
export function callTool(tool: ToolDefinition, args: JsonObject = {}, sessionId = 1): Promise<ToolResult> {
	return tool.call(args, { sessionId, signal: new AbortController().signal });
}

/** The one JSON document a VS Code tool answers with. */
export function jsonOf(result: ToolResult): unknown {
	expect(result.isError).toBeUndefined();
	expect(result.content).toHaveLength(1);
	return JSON.parse(result.content[0]?.text ?? "");
}
