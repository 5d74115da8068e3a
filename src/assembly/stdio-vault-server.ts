import { basename } from "node:path";
import { clearTimeout, setTimeout } from "node:timers";
import type { Readable, Writable } from "node:stream";
import type { PrivacyRules } from "../vault/privacy/privacy";
import { VaultPrivacy } from "../vault/privacy/vault-privacy";
import { VaultPaths } from "../vault/vault-paths";
import { ErrorCode, JsonRpcError, errorResponse } from "../protocol/json-rpc";
import { McpSession, type MethodHandler, type TraceEvent } from "../protocol/mcp-session";
import { toolError, type ServerInfo, type ToolDefinition } from "../protocol/mcp-types";
import { ToolRegistry } from "../protocol/tool-registry";
import { MAX_INCOMING_MESSAGE_BYTES, MAX_OUTGOING_MESSAGE_BYTES } from "../server/limits";
import { describeError } from "../shared/describe-error";
import { createVaultTools } from "../vault-tools/create-vault-tools";
import { libraryYamlCodec } from "../vault/folder/yaml-library-codec";
import { VAULT_TOOLS_INSTRUCTIONS } from "../vault-tools/instructions";
import { FolderVault } from "../vault/folder/folder-vault";
import { BridgeLocator } from "../vault-tools/relay-client/bridge-locator";
import { FolderHostLocator } from "../vault-tools/relay-client/folder-host-locator";
import { VaultToolServer } from "../vault-tools/serve/vault-tool-server";
import { FolderHost } from "./folder-host";
import { BridgeRelay } from "../vault-tools/relay-client/bridge-relay";
import type { RelayConnection } from "../vault-tools/relay-client/relay-connection";
import { bridgePrivacy, readBridgePrivacy, rulesNotKept } from "../vault/privacy/bridge-privacy";
import { relayedMethods } from "../vault-tools/relay-client/relayed-methods";
import { relayedTools } from "../vault-tools/relay-client/relayed-tools";
import { DEFAULT_PROMPTS_FOLDER } from "../vault-tools/prompts/vault-prompts";
import { createVaultContentMethods } from "../vault-tools/resources/content-methods";
import { LineTransport } from "../vault-tools/stdio/line-transport";
import { PluginSettings } from "../vault/privacy/plugin-settings";
import type { JournalStore } from "../journal/journal-store";
import type { JournalSeal } from "../journal/journal-seal";
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
}

/** How long calls already made may still run after the client closed stdin. */
export const STDIN_CLOSED_GRACE_MS = 5_000;

export interface StdioVaultServer {
	/** Settles when the client closed stdin (or it failed) and everything is released. */
	closed: Promise<void>;
	dispose(): void;
}

/**
 * `claude-code-bridge mcp --vault DIR`: the vault tools as an MCP server on stdin/stdout. Every call goes to the
 * vault's bridge when one runs; otherwise reads are answered from the folder with the same core (privacy from the
 * plugin's settings in the vault) and writes are refused with a reason. `tools/list` is the same either way, so
 * Claude Code keeps the tools when Obsidian is closed at the start of a session.
 */
export function startStdioVaultServer(options: StdioVaultServerOptions): StdioVaultServer {
	const log = options.log;
	const paths = new VaultPaths(options.vaultPath);
	const vaultName = basename(paths.root);
	// The same folder adapter as the headless host's; this process reads only its vault-tools index.
	const folder = new FolderVault({ root: paths.root, watch: options.watch ?? true, log });
	const index = folder.index;
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
	const vault = privacy.visibleVault(index);
	const folderTools = createVaultTools({
		vault,
		yaml: libraryYamlCodec,
		writesUnavailable: () =>
			relay.refusal() !== undefined
				? `the bridge running for the vault "${vaultName}" was not used: it would show notes that this vault's privacy settings hide, or cannot say which notes it hides (the log of \`claude-code-bridge mcp\` on stderr says which rules). Writes need the bridge; read tools answer from the files meanwhile. Ask the user to restart it with the vault's privacy settings (or to update it), then call again.`
				: `Obsidian is not running for the vault "${vaultName}" (${paths.root}), so this change cannot be made: writes need it (Obsidian's index, link-safe renames and the review of each change). Ask the user to open the vault in Obsidian with Claude Code Bridge enabled (or to run \`claude-code-bridge serve --vault "${paths.root}"\`), then call again. Read tools keep working from the files meanwhile.`,
	});
	// The user may turn the vault tools off in the plugin: then the folder does not answer for Obsidian either.
	const turnedOff = (name: string): string =>
		`${name}: the vault tools are turned off in Claude Code Bridge's settings for the vault "${vaultName}" (Obsidian → Settings → Claude Code Bridge); nothing was read or changed.`;
	// The activity journal records only what this server answers from the folder: a relayed call is the bridge's.
	const journal = options.journalStore
		? createJournal(
				{ store: options.journalStore, ...(options.journalSeal ? { seal: options.journalSeal } : {}) },
				privacy,
				log,
			)
		: undefined;
	const answeredHere = new Set<string>();
	const markAnsweredHere = (journalId: string | undefined): void => {
		if (journal && journalId !== undefined) answeredHere.add(journalId);
	};
	const local = folderTools.map((tool): ToolDefinition => ({
		...tool,
		call: (args, context) => {
			markAnsweredHere(context.journalId);
			if (settings.vaultToolsOff()) return Promise.resolve(toolError(turnedOff(tool.name)));
			readingTheFolder();
			return tool.call(args, context);
		},
	}));
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
	const sharedIndex = new FolderHostLocator({
		path: folderHost.path,
		vaultPath: folderHost.realVaultPath,
		selfPid: process.pid,
		log,
	});
	const locator = new BridgeLocator({
		vaultPath: paths.root,
		homeDir: options.homeDir,
		claudeConfigDir: options.claudeConfigDir,
		log,
	});
	const relay = new BridgeRelay({
		find: async () => {
			const bridges = await locator.findAll();
			const shared = folderHost.isHost ? undefined : sharedIndex.find();
			return shared ? [...bridges, shared] : bridges;
		},
		clientName: options.relay.clientName,
		clientVersion: options.serverInfo.version,
		// A bridge is used only when it hides at least every note this side would hide (SECURITY.md, "The relay").
		admit: (connection) => privacyRefusal(connection, options.relay.privacyMethod, settings, paths),
		admissionKey: () => String(settings.revision()),
		log,
	});
	const registry = new ToolRegistry();
	for (const tool of relayedTools({ local, relay, callMethod: options.relay.callMethod, log }))
		registry.register(tool);
	// Resources and prompts: the folder has no open note and no daily-notes plugin, so those two resources are the bridge's.
	const content = createVaultContentMethods({
		vault,
		vaultName,
		promptsFolder: () => settings.promptsFolder() ?? DEFAULT_PROMPTS_FOLDER,
	});
	const folderMethods = new Map(
		[...content.methods].map(([method, handler]): [string, MethodHandler] => [
			method,
			(params, context) => {
				markAnsweredHere(context.journalId);
				if (settings.vaultToolsOff()) throw new JsonRpcError(ErrorCode.InvalidRequest, turnedOff(method));
				readingTheFolder();
				return handler(params, context);
			},
		]),
	);
	const methods = relayedMethods({ local: folderMethods, relay, requestMethod: options.relay.requestMethod, log });
	const localRegistry = new ToolRegistry();
	for (const tool of local) localRegistry.register(tool);
	// What this session serves the others when it holds the vault's folder index for them.
	const recorders = journal
		? new JournalRecorders(journal, noteReferences(privacy, linkResolver(index), pathLocator(paths)))
		: undefined;
	const keep = (id: string): boolean => answeredHere.delete(id);
	const observer = recorders?.recorder("vault-tools-stdio", { keep });
	const relayRecorders = new Map<number, RequestObserver>();
	const relayRecorder = (from: JournalRecorders, connection: number): RequestObserver => {
		let recorder = relayRecorders.get(connection);
		if (!recorder)
			relayRecorders.set(connection, (recorder = from.recorder("vault-tools-relay", { connection, keep })));
		return recorder;
	};
	// Another session's calls this one answers from the folder it holds are recorded here, as relayed.
	const folderServer = new VaultToolServer({
		registry: localRegistry,
		serverInfo: options.serverInfo,
		methods: folderMethods,
		capabilities: content.capabilities,
		log,
		...(recorders
			? {
					observer: (_transport: "session" | "http" | "relay", sessionId: number) =>
						relayRecorder(recorders, sessionId),
				}
			: {}),
	});

	let transport: LineTransport | undefined;
	const session = new McpSession({
		id: 1,
		send: (text) => transport?.send(text),
		serverInfo: options.serverInfo,
		tools: registry,
		methods,
		capabilities: content.capabilities,
		instructions: VAULT_TOOLS_INSTRUCTIONS,
		maxOutgoingBytes: MAX_OUTGOING_MESSAGE_BYTES,
		...(observer ? { observer } : {}),
		events: {
			onInitialize: (client, version) =>
				log(`Client ${client.name ?? "?"} ${client.version ?? ""} connected (protocol ${version})`),
			onLog: log,
			...(options.trace ? { onTrace: options.trace } : {}),
		},
	});

	const inFlight = new Set<Promise<void>>();
	let disposed = false;
	let resolveClosed: () => void = () => undefined;
	const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
	const dispose = (): void => {
		if (disposed) return;
		disposed = true;
		clearImmediate(warmUp);
		session.dispose();
		relay.dispose();
		folderHost.dispose();
		folder.dispose();
		void (journal?.close() ?? Promise.resolve()).then(resolveClosed);
	};
	// The client closed stdin: answer what it already asked (reads take milliseconds), then stop. A call still
	// running after the grace period (a write waiting for the user's review) is cancelled: its review is withdrawn.
	const finishThenDispose = async (): Promise<void> => {
		const grace = setTimeout(dispose, STDIN_CLOSED_GRACE_MS);
		await Promise.allSettled([...inFlight]);
		clearTimeout(grace);
		dispose();
	};
	transport = new LineTransport({
		input: options.input,
		output: options.output,
		maxLineBytes: MAX_INCOMING_MESSAGE_BYTES,
		onLine: (line) => {
			const answered = session.handleMessage(line);
			inFlight.add(answered);
			void answered.finally(() => inFlight.delete(answered));
		},
		onOversize: () => {
			log(`Dropped an incoming message of over ${MAX_INCOMING_MESSAGE_BYTES} bytes`);
			transport?.send(
				JSON.stringify(
					errorResponse(null, {
						code: ErrorCode.InvalidRequest,
						message: `Invalid request: a message over ${MAX_INCOMING_MESSAGE_BYTES} bytes was dropped unread`,
					}),
				),
			);
		},
		onEnd: () => void finishThenDispose(),
		log,
	});

	// Reading the folder (no bridge, no other session's index): serve the other sessions too, and read every note
	// now so that the first calls find it warm. Asked again whenever the folder answers, e.g. after the session
	// that served this one ended.
	let warming = false;
	const warmFolderOnce = (): void => {
		if (warming || disposed) return;
		warming = true;
		const started = performance.now();
		void warmFolder(
			folder,
			() => disposed,
			() => settings.rules().tags.length > 0,
		)
			.then((notes) => {
				if (!disposed)
					log(`${WARM_UP_DONE}: read ${notes} notes in ${Math.round(performance.now() - started)} ms`);
			})
			.catch((error: unknown) => log(`Warm-up failed: ${describeError(error)}`));
	};
	function readingTheFolder(): void {
		if (folderHost.isHost || disposed) return;
		void folderHost.claim().then((claimed) => {
			if (claimed) warmFolderOnce();
		});
	}
	const warmUp = setImmediate(() => {
		void (async () => {
			if (await relay.current()) return;
			// Another session may claim the vault first: then this one relays to it and reads nothing itself.
			if (!(await folderHost.claim()) && (await relay.current())) return;
			warmFolderOnce();
		})().catch((error: unknown) => log(`Warm-up failed: ${describeError(error)}`));
	});
	return { closed, dispose };
}

/**
 * Why a bridge may not serve this stdio server's calls: it does not keep private every note that the vault's
 * privacy settings (for the config folder the bridge says it uses, else every candidate's) and this server's
 * options make private; or it cannot say which rules it applies. Undefined when it may.
 */
async function privacyRefusal(
	connection: RelayConnection,
	method: string,
	settings: PluginSettings,
	paths: VaultPaths,
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
	const missing = rulesNotKept(settings.rulesFor(bridge.configFolder), bridge, paths.identity);
	if (missing.length === 0) return undefined;
	return `it does not keep private ${missing.join(", ")}, as this vault's privacy settings${bridge.configFolder ? ` (in ${bridge.configFolder})` : ""} or this server's options do`;
}

/** Logged on stderr when the folder has been read (benchmarks wait for it before timing warm calls). */
export const WARM_UP_DONE = "Folder warm-up done";

/** How long the warm-up works before it lets requests and I/O through (a note's facts can take milliseconds). */
const WARM_UP_SLICE_MS = 8;

/**

 * Reads every note once for what questions about the whole vault need (search text, links, tags, frontmatter, and
 * its tags for privacy while a tag rule is set: without one privacy never asks), in slices of a few milliseconds
 * so that requests arriving meanwhile are answered at once.
 */
async function warmFolder(folder: FolderVault, stopped: () => boolean, tagRules: () => boolean): Promise<number> {
	const index = folder.index;
	await index.refresh();
	const paths = index.notePaths();
	let sliceStart = performance.now();
	for (const path of paths) {
		if (stopped()) return paths.length;
		index.warmNote(path);
		if (tagRules()) folder.tagsOf(path);
		if (performance.now() - sliceStart >= WARM_UP_SLICE_MS) {
			await new Promise<void>((resolve) => setImmediate(resolve));
			sliceStart = performance.now();
		}
	}
	return paths.length;
}
