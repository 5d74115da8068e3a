import { CLIENT_WELCOME_DELAY_MS, MAX_QUEUED_MENTIONS, MAX_READ_FILE_BYTES, QUEUED_MENTION_SPACING_MS, QUEUED_MENTION_TTL_MS, RESOURCES_PAGE_SIZE } from "../server/limits";
import { ToolRegistry } from "../protocol/tool-registry";
import { BridgeHost, type BridgeHostOptions } from "./bridge-host";
import { Notifier } from "./notifier";
import { PrivacyFilter, type PrivacyRules } from "./privacy";
import type { SelectionSnapshot } from "./selection";
import { SERVER_INFO } from "./server-info";
import { VaultAdapter, type VaultFilesPort } from "./vault-adapter";
import { VaultPaths } from "./vault-paths";

export interface BridgeAssemblyOptions
	extends Pick<BridgeHostOptions, "vaultPath" | "ideName" | "homeDir" | "pid" | "port" | "log" | "trace" | "onStatusChange" | "scheduleInterval" | "healthSweepIntervalMs"> {
	files: VaultFilesPort;
	/** Tags of a note (for privacy rules by tag). */
	tagsOf: (relativePath: string) => readonly string[];
	privacyRules: () => PrivacyRules;
	/** The editor's current note and selection. */
	currentSelection: () => SelectionSnapshot | undefined;
	debounceMs: number;
	tools?: ToolRegistry;
}

export interface Bridge {
	host: BridgeHost;
	notifier: Notifier;
	paths: VaultPaths;
	privacy: PrivacyFilter;
	tools: ToolRegistry;
}

/** Wires the core the same way for the plugin and the headless host. */
export function assembleBridge(options: BridgeAssemblyOptions): Bridge {
	const paths = new VaultPaths(options.vaultPath);
	const privacy = new PrivacyFilter(paths, options.privacyRules, options.tagsOf);
	const tools = options.tools ?? new ToolRegistry();
	const adapter = new VaultAdapter({
		paths,
		files: options.files,
		privacy,
		currentSelection: options.currentSelection,
		maxReadBytes: MAX_READ_FILE_BYTES,
		pageSize: RESOURCES_PAGE_SIZE,
	});
	const host: BridgeHost = new BridgeHost({
		vaultPath: options.vaultPath,
		ideName: options.ideName,
		homeDir: options.homeDir,
		pid: options.pid,
		port: options.port,
		serverInfo: SERVER_INFO,
		tools,
		methods: adapter.methods(),
		capabilities: { resources: {} },
		healthSweepIntervalMs: options.healthSweepIntervalMs,
		scheduleInterval: options.scheduleInterval,
		log: options.log,
		trace: options.trace,
		onStatusChange: options.onStatusChange,
		onClientReady: (sessionId) => notifier.clientReady(sessionId),
	});
	const notifier: Notifier = new Notifier({
		broadcast: (method, params) => host.broadcast(method, params),
		notifyClient: (sessionId, method, params) => host.notify(sessionId, method, params),
		hasClients: () => host.hasInitializedClients(),
		currentSelection: options.currentSelection,
		isPrivate: (absolutePath) => privacy.isPrivateAbsolute(absolutePath),
		debounceMs: options.debounceMs,
		welcomeDelayMs: CLIENT_WELCOME_DELAY_MS,
		maxQueuedMentions: MAX_QUEUED_MENTIONS,
		queuedMentionTtlMs: QUEUED_MENTION_TTL_MS,
		queuedMentionSpacingMs: QUEUED_MENTION_SPACING_MS,
	});
	return { host, notifier, paths, privacy, tools };
}
