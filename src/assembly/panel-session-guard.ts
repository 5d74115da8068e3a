import type { SandboxSupport } from "../agent/claude-cli/shell-sandbox";
import { vaultSessionGuard, type PanelGuard } from "../agent/engine/vault-session-guard";
import { VAULT_TRASH_FOLDER } from "../ide/claude-permissions/deny-rules";
import { denyRulesOnDisk } from "../ide/claude-permissions/disk-spellings";
import { CLAUDE_FOLDER } from "../ide/claude-permissions/settings-location";
import type { Bridge } from "./bridge-assembly";

export type { PanelGuard } from "../agent/engine/vault-session-guard";

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
 * A panel session's guard over the bridge's private places, with Claude Code's own deny rules for them (as the
 * settings tab writes them) when the user asked for those, the trash held out and Claude Code's project files kept
 * from the shell's writes.
 */
export function panelSessionGuard(options: PanelGuardOptions): Promise<PanelGuard> {
	const places = options.bridge.privatePlaces();
	const { vaultRoot } = options;
	const denyRules = async (): Promise<readonly string[]> => {
		const configDirs = places.configFolder === undefined ? [] : [places.configFolder];
		return (await denyRulesOnDisk(vaultRoot, { folders: places.folders, tags: places.tags, configDirs })).rules;
	};
	return vaultSessionGuard({
		...options,
		places,
		heldOut: [VAULT_TRASH_FOLDER],
		configuring: [CLAUDE_FOLDER, PROJECT_MCP_FILE],
		...((options.denyRulesWanted?.() ?? false) && { denyRules }),
	});
}
