import { DiagnosticsEngine } from "../bridge/diagnostics/diagnostics-engine";
import { FileSystemNoteSource } from "../bridge/diagnostics/filesystem-note-source";
import { createGetDiagnosticsTool } from "../bridge/tools/get-diagnostics";
import type { VaultPaths } from "../bridge/vault-paths";
import type { ToolRegistry } from "../protocol/tool-registry";
import { describeError } from "../shared/describe-error";
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
	const engine = new DiagnosticsEngine(source);
	options.tools.register(createGetDiagnosticsTool({ diagnostics: engine, paths: options.paths, isPrivate: options.isPrivate }));
	// List, watch and parse the folder now, so the CLI's first calls (500 ms and 2 s timeouts) find it warm.
	const warmUp = setImmediate(() => {
		source.warmUp();
		engine.forVault().catch((error: unknown) => options.log(`Diagnostics warm-up failed: ${describeError(error)}`));
	});
	return () => {
		clearImmediate(warmUp);
		source.dispose();
	};
}
