import { DiagnosticsEngine } from "../bridge/diagnostics/diagnostics-engine";
import { FileSystemNoteSource } from "../bridge/diagnostics/filesystem-note-source";
import { createGetDiagnosticsTool } from "../bridge/tools/get-diagnostics";
import type { VaultPaths } from "../bridge/vault-paths";
import type { ToolRegistry } from "../protocol/tool-registry";
import { parseYaml } from "./yaml-parser";

export interface HeadlessDiagnosticsOptions {
	tools: ToolRegistry;
	paths: VaultPaths;
	isPrivate: (relativePath: string) => boolean;
	log: (message: string) => void;
}

/** Registers `getDiagnostics` over the vault folder; the returned function stops watching it. */
export function setUpHeadlessDiagnostics(options: HeadlessDiagnosticsOptions): () => void {
	const source = new FileSystemNoteSource({ root: options.paths.root, parseYaml, log: options.log });
	options.tools.register(createGetDiagnosticsTool({ diagnostics: new DiagnosticsEngine(source), paths: options.paths, isPrivate: options.isPrivate }));
	// List and watch the folder now, so the CLI's first 500 ms baseline call does not pay for it.
	const warmUp = setImmediate(() => source.warmUp());
	return () => {
		clearImmediate(warmUp);
		source.dispose();
	};
}
