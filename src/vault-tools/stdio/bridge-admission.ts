import { ErrorCode, JsonRpcError } from "../../protocol/json-rpc";
import type { PathKey } from "../../vault/path-identity";
import { readBridgePrivacy, rulesNotKept } from "../../vault/privacy/bridge-privacy";
import type { PrivacyRules } from "../../vault/privacy/privacy";
import { BridgeLocator } from "../relay-client/bridge-locator";
import { BridgeRelay } from "../relay-client/bridge-relay";
import { FolderHostLocator } from "../relay-client/folder-host-locator";
import type { RelayConnection } from "../relay-client/relay-connection";
import type { FolderHost } from "./folder-host";

/** The privacy rules this side applies: the plugin's settings in the vault (per config folder) and the command line's. */
export interface StdioPrivacySettings {
	rulesFor(configFolder: string | undefined): PrivacyRules;
	/** Changes whenever the rules may have: a refused bridge is asked again then. */
	revision(): number;
}

export interface StdioRelayOptions {
	vaultPath: string;
	homeDir: string;
	claudeConfigDir?: string | undefined;
	/** This session's folder host: while it serves the others, it does not relay to itself. */
	folderHost: Pick<FolderHost, "isHost" | "path" | "realVaultPath">;
	/** The relay's client name and the method that asks a bridge which privacy rules it applies. */
	clientName: string;
	clientVersion: string;
	privacyMethod: string;
	settings: StdioPrivacySettings;
	identity: PathKey;
	log: (message: string) => void;
}

/**
 * Where the stdio server's calls go when not answered from the folder: the vault's running bridges (newest first),
 * then another session's shared folder index, each used only when it hides at least every note this side would
 * hide (SECURITY.md, "The relay").
 */
export function createStdioRelay(options: StdioRelayOptions): BridgeRelay {
	const { folderHost, settings, log } = options;
	const sharedIndex = new FolderHostLocator({
		path: folderHost.path,
		vaultPath: folderHost.realVaultPath,
		selfPid: process.pid,
		log,
	});
	const locator = new BridgeLocator({
		vaultPath: options.vaultPath,
		homeDir: options.homeDir,
		claudeConfigDir: options.claudeConfigDir,
		log,
	});
	return new BridgeRelay({
		find: async () => {
			const bridges = await locator.findAll();
			const shared = folderHost.isHost ? undefined : sharedIndex.find();
			return shared ? [...bridges, shared] : bridges;
		},
		clientName: options.clientName,
		clientVersion: options.clientVersion,
		admit: (connection) => privacyRefusal(connection, options.privacyMethod, settings, options.identity),
		admissionKey: () => String(settings.revision()),
		log,
	});
}

/**
 * Why a bridge may not serve this stdio server's calls: it does not keep private every note that the vault's
 * privacy settings (for the config folder the bridge says it uses, else every candidate's) and this server's
 * options make private; or it cannot say which rules it applies. Undefined when it may.
 */
export async function privacyRefusal(
	connection: Pick<RelayConnection, "request">,
	method: string,
	settings: Pick<StdioPrivacySettings, "rulesFor">,
	identity: PathKey,
): Promise<string | undefined> {
	let answer: unknown;
	try {
		answer = await connection.request(method, {});
	} catch (error) {
		if (error instanceof JsonRpcError && error.code === ErrorCode.MethodNotFound)
			return "it does not say which privacy rules it applies (an older version of Claude Code Bridge: update it)";
		throw error;
	}
	const bridge = readBridgePrivacy(answer);
	if (!bridge) return "its answer about the privacy rules it applies cannot be read";
	const missing = rulesNotKept(settings.rulesFor(bridge.configFolder), bridge, identity);
	if (missing.length === 0) return undefined;
	return `it does not keep private ${missing.join(", ")}, as this vault's privacy settings${bridge.configFolder ? ` (in ${bridge.configFolder})` : ""} or this server's options do`;
}
