import { DiffReviewManager } from "../bridge/diff-review/diff-review-manager";
import { DiffReviewTools } from "../bridge/diff-review/diff-review-tools";
import type { SelectionSnapshot } from "../bridge/selection";
import { createWorkspaceTools } from "../bridge/tools/workspace-tools";
import type { VaultPaths } from "../bridge/vault-paths";
import type { ToolRegistry } from "../protocol/tool-registry";
import type { HeadlessCommand } from "./command-loop";
import { diffCommand } from "./diff-commands";
import type { HeadlessEditor } from "./headless-editor";
import { HeadlessReviewPort } from "./headless-review-port";
import { HeadlessWorkspace } from "./headless-workspace";

export interface HeadlessIdeToolsOptions {
	tools: ToolRegistry;
	paths: VaultPaths;
	vaultName: string;
	editor: HeadlessEditor;
	latestSelection: () => SelectionSnapshot | undefined;
	print: (line: string) => void;
}

export interface HeadlessIdeTools {
	commands: [string, HeadlessCommand][];
	reviews: DiffReviewManager;
}

/** Registers the IDE tools (edit review and the read-only workspace tools) with their headless adapters. */
export function setUpHeadlessIdeTools(options: HeadlessIdeToolsOptions): HeadlessIdeTools {
	const { tools, paths } = options;
	const reviews = new DiffReviewManager({ paths, port: new HeadlessReviewPort(options.print) });
	new DiffReviewTools(tools, reviews).setEnabled(true);
	const workspace = new HeadlessWorkspace(paths, options.editor);
	for (const tool of createWorkspaceTools({ paths, workspace, vaultName: options.vaultName, latestSelection: options.latestSelection })) tools.register(tool);
	return { commands: [["diff", diffCommand(reviews)]], reviews };
}
