import { realpathSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import type { PrivacyRules } from "../vault/privacy/privacy";
import { VaultPrivacy } from "../vault/privacy/vault-privacy";
import { VaultPaths } from "../vault/vault-paths";
import type { JsonObject } from "../protocol/json-rpc";
import { McpSession, type MethodHandler, type TraceEvent } from "../protocol/mcp-session";
import type { ServerInfo, ToolDefinition } from "../protocol/mcp-types";
import { ToolRegistry } from "../protocol/tool-registry";
import { MAX_OUTGOING_MESSAGE_BYTES } from "../server/limits";
import { createVaultTools } from "../vault-tools/create-vault-tools";
import { RegexScanner } from "../vault-tools/regex/regex-scanner";
import { restoreHeapFlags } from "../shared/v8-heap-flags";
import { libraryYamlCodec } from "../vault/folder/yaml-library-codec";
import { VAULT_TOOLS_INSTRUCTIONS } from "../vault-tools/instructions";
import { FolderVault } from "../vault/folder/folder-vault";
import { SavedFolderIndex, savedFolderIndexFile } from "../vault/folder/saved-folder-index";
import { VaultToolServer } from "../vault-tools/serve/vault-tool-server";
import { FolderHost } from "../vault-tools/stdio/folder-host";
import type { BridgeRelay } from "../vault-tools/relay-client/bridge-relay";
import { bridgePrivacy } from "../vault/privacy/bridge-privacy";
import { relayedMethods } from "../vault-tools/relay-client/relayed-methods";
import { relayedTools } from "../vault-tools/relay-client/relayed-tools";
import { DEFAULT_PROMPTS_FOLDER } from "../vault-tools/prompts/vault-prompts";
import { createVaultContentMethods } from "../vault-tools/resources/content-methods";
import { PluginSettings } from "../vault/privacy/plugin-settings";
import { createStdioRelay } from "../vault-tools/stdio/bridge-admission";
import { folderAnswers, folderWritesUnavailable } from "../vault-tools/stdio/folder-answers";
import { FolderReading } from "../vault-tools/stdio/folder-reading";
import { StdioChannel } from "../vault-tools/stdio/stdio-channel";
import type { JournalStore } from "../journal/journal-store";
import type { JournalSeal } from "../journal/journal-seal";
import type { Journal } from "../journal/journal";
import type { RequestObserver } from "../protocol/request-observer";
import { createJournal, JournalRecorders, linkResolver, noteReferences, pathLocator } from "./journal-wiring";

export interface StdioVaultServerOptions {
	/** The vault folder (checked to exist by the caller). */
	vaultPath: string;
	input: Readable;
	output: Writable;
	serverInfo: ServerInfo;
	/**
	 * Relay protocol on the IDE channel: the method for one tools/call, the one for any other method (resources,
	 * prompts), and the name the relay introduces itself by.
	 */
	relay: { callMethod: string; requestMethod: string; privacyMethod: string; clientName: string };
	homeDir: string;
	claudeConfigDir?: string;
	/** Privacy rules from the command line, added to the plugin's settings in the vault (never removing one). */
	privacy: PrivacyRules;
	/** Diagnostics, to stderr: stdout carries only protocol frames. */
	log: (message: string) => void;
	/** Each message's method and id (never its contents), for --debug. */
	trace?: (event: TraceEvent) => void;
	/** Watch the folder for changes (default true); false re-checks every file on each call. */
	watch?: boolean;
	/** Where the calls this server answers itself are recorded (those relayed are recorded by the bridge). */
	journalStore?: JournalStore | undefined;
	/** This device's seal for the journal's records (`deviceJournalSeal`). */
	journalSeal?: JournalSeal | undefined;
	/** Where the folder index's summaries are kept between sessions (`savedFolderIndexFile`); none without. */
	savedIndexFile?: string | undefined;
}

export interface StdioVaultServer {
	/** Settles when the client closed stdin (or it failed) and everything is released. */
	closed: Promise<void>;
	dispose(): void;
}

/** The vault's folder as this process reads it: the folder adapter, the plugin's privacy settings, the boundary. */
interface FolderSide {
	paths: VaultPaths;
	vaultName: string;
	folder: FolderVault;
	settings: PluginSettings;
	privacy: VaultPrivacy;
}

/** What the stdio server answers itself, and from where. */
interface ServedParts {
	tools: ToolRegistry;
	methods: ReadonlyMap<string, MethodHandler>;
	capabilities: JsonObject;
	relay: BridgeRelay;
	folderHost: FolderHost;
	reading: FolderReading;
}

/**
 * `claude-code-bridge mcp --vault DIR`: the vault tools as an MCP server on stdin/stdout. Every call goes to the
 * vault's bridge when one runs; otherwise reads are answered from the folder with the same core (privacy from the
 * plugin's settings in the vault) and writes are refused with a reason. `tools/list` is the same either way, so
 * Claude Code keeps the tools when Obsidian is closed at the start of a session.
 */
export function startStdioVaultServer(options: StdioVaultServerOptions): StdioVaultServer {
	const side = folderSide(options);
	const journal = stdioJournal(options, side);
	const served = servedParts(options, side, journal);
	let channel: StdioChannel | undefined;
	const session = new McpSession({
		id: 1,
		send: (text) => channel?.send(text),
		serverInfo: options.serverInfo,
		tools: served.tools,
		methods: served.methods,
		capabilities: served.capabilities,
		instructions: VAULT_TOOLS_INSTRUCTIONS,
		maxOutgoingBytes: MAX_OUTGOING_MESSAGE_BYTES,
		...(journal.observer ? { observer: journal.observer } : {}),
		events: {
			onInitialize: (client, version) =>
				options.log(`Client ${client.name ?? "?"} ${client.version ?? ""} connected (protocol ${version})`),
			onLog: options.log,
			...(options.trace ? { onTrace: options.trace } : {}),
		},
	});
	let resolveClosed: () => void = () => undefined;
	const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
	let disposed = false;
	const dispose = (): void => {
		if (disposed) return;
		disposed = true;
		served.reading.dispose();
		session.dispose();
		served.relay.dispose();
		served.folderHost.dispose();
		side.folder.dispose();
		void (journal.journal?.close() ?? Promise.resolve()).then(resolveClosed);
	};
	const handle = (line: string): Promise<void> => session.handleMessage(line);
	channel = new StdioChannel({
		input: options.input,
		output: options.output,
		handle,
		stop: dispose,
		log: options.log,
	});
	return { closed, dispose };
}

/**
 * Where the stdio server keeps its folder index's summaries between sessions on the vault at `vaultPath` (in the
 * user's cache folder, named by the vault's real path); undefined when that would be inside the vault.
 */
export function savedIndexFileFor(
	vaultPath: string,
	environment: Readonly<Record<string, string | undefined>>,
	homeDir: string,
): string | undefined {
	let real: string;
	try {
		real = realpathSync.native(vaultPath);
	} catch {
		real = resolve(vaultPath);
	}
	return savedFolderIndexFile(real, environment, homeDir);
}

/** The same folder adapter as the headless host's (this process reads only its vault-tools index), and its privacy. */
function folderSide(options: StdioVaultServerOptions): FolderSide {
	const log = options.log;
	const paths = new VaultPaths(options.vaultPath);
	const savedIndex =
		options.savedIndexFile === undefined
			? undefined
			: new SavedFolderIndex({
					file: options.savedIndexFile,
					vault: paths.root,
					version: options.serverInfo.version,
				});
	const folder = new FolderVault({
		root: paths.root,
		watch: options.watch ?? true,
		log,
		...(savedIndex ? { savedIndex } : {}),
	});
	const settings = new PluginSettings({
		vaultRoot: paths.root,
		extra: options.privacy,
		log,
		topLevelVersion: () => folder.store.topLevelVersion,
	});
	// Tags as the IDE tools read them (`noteTags`), kept per note version by the folder adapter: no file read per decision.
	const privacy = new VaultPrivacy({
		paths,
		rules: () => settings.rules(),
		tagsOf: (relative) => folder.tagsOf(relative),
		warn: log,
	});
	return { paths, vaultName: basename(paths.root), folder, settings, privacy };
}

/** The calls this server answers from the folder, and where they are recorded. */
interface StdioJournal {
	journal?: Journal;
	/** The folder answers this call: it is this session's to record (a relayed call is the bridge's). */
	answering: (journalId: string | undefined) => void;
	/** Records this session's calls. */
	observer?: RequestObserver;
	/** Records another session's calls that this one answers from the folder it holds, as relayed. */
	relayObserver?: (transport: "session" | "http" | "relay", connection: number) => RequestObserver;
}

/** The activity journal records only what this server answers from the folder: a relayed call is the bridge's. */
function stdioJournal(options: StdioVaultServerOptions, side: FolderSide): StdioJournal {
	const store = options.journalStore;
	if (!store) return { answering: () => undefined };
	const seal = options.journalSeal ? { seal: options.journalSeal } : {};
	const journal = createJournal({ store, ...seal }, side.privacy, options.log);
	const references = noteReferences(side.privacy, linkResolver(side.folder.index), pathLocator(side.paths));
	const recorders = new JournalRecorders(journal, references);
	const answeredHere = new Set<string>();
	const keep = (id: string): boolean => answeredHere.delete(id);
	const relayRecorders = new Map<number, RequestObserver>();
	return {
		journal,
		answering: (journalId) => {
			if (journalId !== undefined) answeredHere.add(journalId);
		},
		observer: recorders.recorder("vault-tools-stdio", { keep }),
		relayObserver: (_transport, connection) => {
			let recorder = relayRecorders.get(connection);
			if (!recorder)
				relayRecorders.set(
					connection,
					(recorder = recorders.recorder("vault-tools-relay", { connection, keep })),
				);
			return recorder;
		},
	};
}

/**
 * The folder's tools, resources and prompts, each call relayed to the vault's bridge (or to the session that holds
 * the folder's index for the others) when one may serve it, else answered from the folder.
 */
function servedParts(options: StdioVaultServerOptions, side: FolderSide, journal: StdioJournal): ServedParts {
	const { paths, vaultName, settings } = side;
	const log = options.log;
	const vault = side.privacy.visibleVault(side.folder.index);
	// With no bridge, one session per vault reads the folder and the others relay to it (a bridge comes first). The
	// host answers the relay's privacy question with its rules, so a session relays only to one that hides as much.
	const folderHost = new FolderHost({
		homeDir: options.homeDir,
		vaultPath: paths.root,
		extraRules: options.privacy,
		serverInfo: options.serverInfo,
		server: () => folderServer,
		privacy: () => bridgePrivacy(settings.rules(), undefined),
		log,
	});
	const relay = createStdioRelay({
		vaultPath: paths.root,
		homeDir: options.homeDir,
		claudeConfigDir: options.claudeConfigDir,
		folderHost,
		clientName: options.relay.clientName,
		clientVersion: options.serverInfo.version,
		privacyMethod: options.relay.privacyMethod,
		settings,
		identity: paths.identity,
		log,
	});
	const reading = new FolderReading({
		folder: side.folder,
		host: folderHost,
		relay,
		tagRules: () => settings.rules().tags.length > 0,
		log,
	});
	const writesUnavailable = (): string =>
		folderWritesUnavailable(vaultName, paths.root, relay.refusal() !== undefined);
	// Resources and prompts: the folder has no open note and no daily-notes plugin, so those two resources are the bridge's.
	const promptsFolder = (): string => settings.promptsFolder() ?? DEFAULT_PROMPTS_FOLDER;
	const content = createVaultContentMethods({ vault, vaultName, promptsFolder });
	const local = folderAnswers({
		tools: createVaultTools({
			vault,
			yaml: libraryYamlCodec,
			writesUnavailable,
			// A regex worker's start resets the heap flags the stdio server set (src/shared/v8-heap-flags.ts).
			regex: new RegexScanner({ threadStarted: restoreHeapFlags }),
		}),
		methods: content.methods,
		vaultName,
		turnedOff: () => settings.vaultToolsOff(),
		answering: journal.answering,
		reading: () => reading.reading(),
		answered: () => reading.answered(),
	});
	const folderServer: VaultToolServer = localServer(options, local, content.capabilities, journal);
	return {
		tools: registryOf(relayedTools({ local: local.tools, relay, callMethod: options.relay.callMethod, log })),
		methods: relayedMethods({ local: local.methods, relay, requestMethod: options.relay.requestMethod, log }),
		capabilities: content.capabilities,
		relay,
		folderHost,
		reading,
	};
}

/** What this session serves the others when it holds the vault's folder index for them. */
function localServer(
	options: StdioVaultServerOptions,
	local: { tools: readonly ToolDefinition[]; methods: ReadonlyMap<string, MethodHandler> },
	capabilities: JsonObject,
	journal: StdioJournal,
): VaultToolServer {
	return new VaultToolServer({
		registry: registryOf(local.tools),
		serverInfo: options.serverInfo,
		methods: local.methods,
		capabilities,
		log: options.log,
		...(journal.relayObserver ? { observer: journal.relayObserver } : {}),
	});
}

function registryOf(tools: readonly ToolDefinition[]): ToolRegistry {
	const registry = new ToolRegistry();
	for (const tool of tools) registry.register(tool);
	return registry;
}
