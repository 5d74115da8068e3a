import type { ToolDefinition } from "../../protocol/mcp-types";
import type { VaultPaths } from "../../vault/vault-paths";
import type { SelectionSnapshot, WorkspacePort } from "../workspace/workspace-port";
import { createCheckDocumentDirtyTool } from "./check-document-dirty";
import { createGetCurrentSelectionTool } from "./get-current-selection";
import { createGetLatestSelectionTool } from "./get-latest-selection";
import { createGetOpenEditorsTool } from "./get-open-editors";
import { createGetWorkspaceFoldersTool } from "./get-workspace-folders";
import { createOpenFileTool } from "./open-file";
import { createSaveDocumentTool } from "./save-document";

export interface WorkspaceToolsOptions {
	paths: VaultPaths;
	workspace: WorkspacePort;
	vaultName: string;
	/** The selection tracker's last selection. */
	latestSelection: () => SelectionSnapshot | undefined;
	/** Reads a note's text for openFile; undefined when there is no such note. Defaults to the file system. */
	readText?: (absolutePath: string) => Promise<string | undefined>;
}

/** The read-only VS Code tools, for clients that use them (CLI 2.1.330 calls none of them). No `executeCode`. */
export function createWorkspaceTools(options: WorkspaceToolsOptions): ToolDefinition[] {
	return [
		createOpenFileTool(options),
		createGetCurrentSelectionTool(options),
		createGetLatestSelectionTool(options),
		createGetOpenEditorsTool(options),
		createGetWorkspaceFoldersTool(options),
		createCheckDocumentDirtyTool(options),
		createSaveDocumentTool(options),
	];
}
