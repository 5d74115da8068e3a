import type { ToolDefinition } from "../../protocol/mcp-types";
import type { VaultPaths } from "../../vault/vault-paths";
import type { SelectionSnapshot, WorkspacePort } from "../workspace/workspace-port";
import { CheckDocumentDirtyTool } from "./check-document-dirty";
import { GetCurrentSelectionTool } from "./get-current-selection";
import { GetLatestSelectionTool } from "./get-latest-selection";
import { GetOpenEditorsTool } from "./get-open-editors";
import { GetWorkspaceFoldersTool } from "./get-workspace-folders";
import { OpenFileTool } from "./open-file";
import { SaveDocumentTool } from "./save-document";

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
		new OpenFileTool(options.paths, options.workspace, options.readText),
		new GetCurrentSelectionTool(options.workspace),
		new GetLatestSelectionTool(options.latestSelection),
		new GetOpenEditorsTool(options.workspace),
		new GetWorkspaceFoldersTool(options.paths, options.vaultName),
		new CheckDocumentDirtyTool(options.paths, options.workspace),
		new SaveDocumentTool(options.paths, options.workspace),
	];
}
