import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import type { SandboxSupport } from "../agent/claude-cli/shell-sandbox";
import type { SessionGuard, ShellSandbox } from "../agent/engine/session-guard";
import { VAULT_TRASH_FOLDER } from "../ide/claude-permissions/deny-rules";
import { denyRulesOnDisk } from "../ide/claude-permissions/disk-spellings";
import { CLAUDE_FOLDER } from "../ide/claude-permissions/settings-location";
import type { Bridge } from "./bridge-assembly";

/** Where Claude Code reads a project's MCP servers: a shell command may not plant one. */
const PROJECT_MCP_FILE = ".mcp.json";

export interface PanelGuardOptions {
	bridge: Pick<Bridge, "privatePlaces">;
	vaultRoot: string;
	/** Whether the CLI's shell sandbox runs on this machine (asked at each session start). */
	sandboxSupport: () => Promise<SandboxSupport>;
	/** Whether the user trusted this vault's own Claude Code configuration on this device. Default: not trusted. */
	projectConfigTrusted?: () => Promise<boolean>;
	/** Whether the user asked for Claude Code's deny rules over the private folders and the config folder. Default: no. */
	denyRulesWanted?: () => boolean;
}

/**
 * A session's guard; when the shell runs without the sandbox, why (for the panel to say); with it, whether there are
 * notes private by a tag, which the sandbox does not hold out.
 */
export interface PanelGuard {
	guard: SessionGuard;
	sandboxMissing?: string;
	tagPrivateReadable?: boolean;
}

/**
 * The guard of one panel session, as the vault is when it starts: the deny rules for the private folders and the
 * config folder handed to the CLI when the user asked for them (the project settings file they were written to is
 * not loaded while the vault's configuration is untrusted), and, where the sandbox runs, every shell command held
 * out of the private folders, the config folder and the trash, and kept from writing what configures Claude Code in
 * the vault. Notes private by a tag are not listed: Claude Code describes its sandbox to the model, every denied path
 * included, so listing them would name them to the model in every request (the gate then allows a shell command
 * once at a time instead).
 */
export async function panelSessionGuard(options: PanelGuardOptions): Promise<PanelGuard> {
	const places = options.bridge.privatePlaces();
	const wanted = options.denyRulesWanted?.() ?? false;
	const [support, trusted, deny] = await Promise.all([
		options.sandboxSupport(),
		options.projectConfigTrusted?.() ?? Promise.resolve(false),
		wanted
			? denyRulesOnDisk(options.vaultRoot, {
					folders: places.folders,
					tags: places.tags,
					configDirs: places.configFolder === undefined ? [] : [places.configFolder],
				})
			: undefined,
	]);
	const guard: SessionGuard = {
		projectConfigTrusted: trusted,
		...(deny !== undefined && { denyRules: deny.rules }),
		...(support.available && { sandbox: shellSandbox(options.vaultRoot, places) }),
	};
	if (!support.available) return { guard, sandboxMissing: support.why };
	return places.notes.length > 0 ? { guard, tagPrivateReadable: true } : { guard };
}

function shellSandbox(vaultRoot: string, places: ReturnType<Bridge["privatePlaces"]>): ShellSandbox {
	const roots = vaultSpellings(vaultRoot);
	const relative = [
		...places.folders,
		...(places.configFolder === undefined ? [] : [places.configFolder]),
		VAULT_TRASH_FOLDER,
	]
		.map((path) =>
			path
				.trim()
				.replace(/\\/g, "/")
				.replace(/^\/+|\/+$/g, ""),
		)
		.filter((path) => path !== "");
	// Only places that exist: the sandbox binds over each one, and a folder made later is judged by the gate's question.
	const denyRead = unique(roots.flatMap((root) => relative.map((path) => join(root, path)))).filter((path) =>
		existsSync(path),
	);
	const configuring = roots.flatMap((root) => [join(root, CLAUDE_FOLDER), join(root, PROJECT_MCP_FILE)]);
	return { denyRead, denyWrite: unique([...denyRead, ...configuring]) };
}

/** The vault's folder as given and as the system resolves it: a command may reach it either way. */
function vaultSpellings(vaultRoot: string): string[] {
	try {
		return unique([vaultRoot, realpathSync(vaultRoot)]);
	} catch {
		return [vaultRoot];
	}
}

function unique(items: readonly string[]): string[] {
	return [...new Set(items)];
}
