import {
	CLIENT_WELCOME_DELAY_MS,
	MAX_QUEUED_MENTIONS,
	MAX_READ_FILE_BYTES,
	QUEUED_MENTION_SPACING_MS,
	QUEUED_MENTION_TTL_MS,
	RESOURCES_PAGE_SIZE,
} from "../ide/ide-limits";
import { ErrorCode, JsonRpcError, type JsonObject } from "../protocol/json-rpc";
import type { MethodHandler } from "../protocol/mcp-session";
import { ToolRegistry } from "../protocol/tool-registry";
import type { RegexScanner } from "../vault-tools/regex/regex-scanner";
import type { YamlCodec } from "../shared/yaml-codec";
import { createVaultToolRegistry } from "../vault-tools/create-vault-tools";
import { VAULT_TOOLS_INSTRUCTIONS } from "../vault-tools/instructions";
import type { ActiveNote, ActiveNoteSource } from "../vault-tools/kit/ports";
import { VAULT_TOOLS_RELAY_CLIENT_NAME, vaultToolRelayMethods } from "../vault-tools/serve/relay-methods";
import { VaultToolServer } from "../vault-tools/serve/vault-tool-server";
import type { VaultIndex } from "../vault/notes/vault-index";
import type { VisibleVault } from "../vault/privacy/visible-vault";
import { BridgeHost, type BridgeHostOptions } from "../ide/bridge-host";
import { DiagnosticsEngine } from "../ide/diagnostics/diagnostics-engine";
import type { DiagnosticsNotes } from "../vault/notes/notes";
import { PendingReviews } from "../review/pending-reviews";
import { DiffReviewTools } from "../ide/tools/diff-review-tools";
import { readTextIfExists } from "../shared/read-text-if-exists";
import type { AcceptOutcome, DiffReviewPort, PendingReview } from "../review/edit-proposal";
import { Notifier } from "../ide/notifier";
import type { PrivacyRules } from "../vault/privacy/privacy";
import { VaultPrivacy } from "../vault/privacy/vault-privacy";
import { bridgePrivacy, type BridgePrivacy } from "../vault/privacy/bridge-privacy";
import { privateWorkspace } from "../ide/workspace/private-workspace";
import type { SelectionSnapshot } from "../ide/workspace/selection";
import { SERVER_INFO } from "../ide/server-info";
import { createGetDiagnosticsTool } from "../ide/tools/get-diagnostics";
import { createWorkspaceTools } from "../ide/tools/workspace-tools";
import { VaultAdapter } from "../ide/vault-adapter";
import type { VaultFileBytes } from "../vault/notes/vault-files";
import type { VaultPaths } from "../vault/vault-paths";
import type { WorkspacePort } from "../ide/workspace/workspace-port";
import type { Journal } from "../journal/journal";
import { JournaledVaultIndex } from "../journal/journaled-vault-index";
import { JournalWriter, type NoteBytes } from "../journal/journal-writer";
import { Undo, type UndoVault } from "../journal/undo";
import { TurnRewind } from "../journal/turn-rewind";
import {
	createJournal,
	JournalRecorders,
	linkResolver,
	noteReferences,
	pathLocator,
	undoPathCheck,
	writePrivacy,
	type JournalAssemblyOptions,
} from "./journal-wiring";

/** Where a review view sends the user's decision on a review it shows. */
export interface ReviewDecisions {
	/** Refused (with the reason) when the note's path no longer leads where it did when the review opened. */
	accept(review: PendingReview, finalText: string): AcceptOutcome;
	/** `reason`: what the user wrote for Claude, if anything. */
	reject(review: PendingReview, reason?: string): void;
	/** The view closed while the review was pending: counts as a rejection. */
	closed(review: PendingReview): void;
}

/**
 * What a composition root supplies: adapters to the app (Obsidian) or to a folder (headless). They are given
 * raw; the assembly hides private notes in each of them (`VaultPrivacy`, the one boundary) before anything uses them.
 */
export interface BridgePorts {
	/** The vault's files: listing, sizes, bytes. */
	files: VaultFileBytes;
	/** A note's tags, for the private-tag rules. */
	tagsOf: (relativePath: string) => readonly string[];
	/** The editor's active note and selection (the welcome after connecting, `workspace/selection`). */
	currentSelection: () => SelectionSnapshot | undefined;
	/** The editor side of the read-only workspace tools. */
	workspace: WorkspacePort;
	/** Notes and their metadata, for getDiagnostics. The root owns its lifecycle (warm-up, disposal). */
	notes: DiagnosticsNotes;
	/** Builds where reviews are shown; the view reports the user's decisions to `decisions`. */
	reviewPort: (decisions: ReviewDecisions) => DiffReviewPort;
	/** Reads a note's text for openFile; undefined when there is none. Defaults to the file system. */
	readText?: (absolutePath: string) => Promise<string | undefined>;
}

export interface BridgeAssemblyOptions extends Pick<
	BridgeHostOptions,
	| "ideName"
	| "homeDir"
	| "pid"
	| "port"
	| "log"
	| "trace"
	| "onStatusChange"
	| "scheduleInterval"
	| "healthSweepIntervalMs"
> {
	/** The vault folder; the composition root builds it because its adapters need it too. */
	paths: VaultPaths;
	/** The vault's name as getWorkspaceFolders reports it. */
	vaultName: string;
	ports: BridgePorts;
	privacyRules: () => PrivacyRules;
	/**
	 * The config folder the privacy rules' settings come from (Obsidian's `app.vault.configDir`), told to relays so
	 * they compare with that folder's settings; left out where it cannot be known (the headless host).
	 */
	configFolder?: string;
	debounceMs: number;
	/** Whether openDiff, close_tab and closeAllDiffTabs are listed at start ("Review Claude's edits in Obsidian"). */
	reviewEdits: boolean;
	/** Claude's own vault tools (issue 10). Left out: none are served and the relay methods answer -32601. */
	vaultTools?: VaultToolsAssemblyOptions;
	/** The activity journal: every surface's calls and every vault-tool write (issue 17). Left out: nothing is recorded. */
	journal?: JournalAssemblyOptions;
}

/** What the assembly gives `VaultToolsAssemblyOptions.content`: the decisions the vault tools themselves use. */
export interface VaultToolsShared {
	/** The notes as the vault tools see them, through the vault's privacy boundary. */
	vault: VisibleVault;
	activeNote: ActiveNoteSource;
}

/** What the vault tools need from the composition root; privacy, review and the active note come from the bridge. */
export interface VaultToolsAssemblyOptions {
	/** The vault's notes: Obsidian's adapter or `FolderVaultIndex`. The root owns its lifecycle (disposal). */
	index: VaultIndex;
	/** The YAML the tools read and write frontmatter with: Obsidian's in the plugin, the `yaml` library's elsewhere. */
	yaml: YamlCodec;
	/** Whether writes go through the review (read per write, so the setting applies at once). Default: always. */
	reviewWrites?: () => boolean;
	/** When this returns a reason, write tools answer it as an error and change nothing. */
	writesUnavailable?: () => string | undefined;
	/** More MCP methods of the vault-tools server (resources/*, prompts/*), served by every transport. */
	methods?: ReadonlyMap<string, MethodHandler>;
	/**
	 * Methods built with the tools' own privacy decision and active note (e.g. `createVaultContentMethods` for
	 * resources and prompts), so they cannot disagree with the tools; served beside `methods`.
	 */
	content?: (shared: VaultToolsShared) => { methods: ReadonlyMap<string, MethodHandler>; capabilities?: JsonObject };
	/** Capabilities for those methods, e.g. `{ resources: {}, prompts: {} }`. */
	capabilities?: JsonObject;
	/** Characters per text answer (default 24,000). */
	textCap?: number;
	/**
	 * A note's tags for the private-tag rules, when a cheaper source than `ports.tagsOf` gives the same answer
	 * (privacy is decided for every note on every call). Default: `ports.tagsOf`, the IDE tools' own source.
	 */
	tagsOf?: (relativePath: string) => readonly string[];
	/** Where regex search runs (default: a scanner of the vault tools' own); the root disposes one it passes. */
	regex?: RegexScanner;
}

export interface Bridge {
	host: BridgeHost;
	notifier: Notifier;
	paths: VaultPaths;
	/** The vault's one privacy boundary: every port above was wrapped by it. */
	privacy: VaultPrivacy;
	tools: ToolRegistry;
	/** Pending edit reviews (the headless `diff` commands decide them). */
	reviews: PendingReviews;
	/** Turns the review tools on or off (the setting). */
	diffTools: DiffReviewTools;
	/** getDiagnostics' engine (the headless host warms it up). */
	diagnostics: DiagnosticsEngine;
	/**
	 * Claude's own vault tools as one MCP server, when `vaultTools` was given: transports plug in through
	 * `session()` (stdio, in-memory), `answer()` (stateless HTTP) or `request()` (the relay, already served as
	 * `vaultTools/*` on the IDE channel).
	 */
	vaultTools?: VaultToolServer;
	/** The activity journal and its undo, when `journal` was given (undo only with the root's undo writes and vault tools). */
	activity?: {
		journal: Journal;
		undo?: Undo;
		/** Puts back what the agent panel's turns changed (with undo: the same writes, the same path checks). */
		rewind?: TurnRewind;
		/** What records each surface's calls (the agent panel's too), naming notes as the bridge does. */
		recorders: JournalRecorders;
		/**
		 * The one writer of every surface's writes (the vault tools' through their index, the panel's through its
		 * gate); a write that leaves its note private (`writePrivacy`) names no note and keeps no pre-image.
		 */
		writer: JournalWriter;
	};
	/**
	 * The places a shell command must not reach, vault-relative: the private folders, every note private by a tag as
	 * the notes are known now, and the config folder (its plugins' settings can hold keys).
	 */
	privatePlaces: () => { folders: string[]; tags: string[]; notes: string[]; configFolder?: string };
	/** Stops timers and rejects pending reviews; the host is stopped separately. */
	dispose: () => void;
}

/**
 * Wires the core the same way for the plugin and the headless host: privacy at the port boundary, the vault
 * adapter's methods, the notifier, and every IDE tool (openDiff, close_tab and closeAllDiffTabs behind their
 * switch; the workspace tools; getDiagnostics).
 */
export function assembleBridge(options: BridgeAssemblyOptions): Bridge {
	const { paths, ports } = options;
	const privacy = new VaultPrivacy({
		paths,
		rules: options.privacyRules,
		tagsOf: ports.tagsOf,
		...(options.vaultTools?.tagsOf ? { indexedTagsOf: options.vaultTools.tagsOf } : {}),
		...(options.log ? { warn: options.log } : {}),
	});
	const currentSelection = privacy.selection(ports.currentSelection);
	const recorders = options.journal ? journalRecorders(options, privacy) : undefined;
	const tools = new ToolRegistry();
	let vaultTools: VaultToolServer | undefined;
	const { host, notifier } = ideChannel(options, privacy, currentSelection, tools, recorders, () => vaultTools);

	const reviews: PendingReviews = new PendingReviews({
		paths,
		privacy,
		port: ports.reviewPort({
			accept: (review, finalText) => reviews.accept(review.title, finalText, review.id),
			reject: (review, reason) => reviews.reject(review.title, review.id, reason),
			closed: (review) => reviews.viewClosed(review.title, review.id),
		}),
	});
	const diffTools = new DiffReviewTools(tools, {
		paths,
		reviews,
		privacy,
		clientName: (sessionId) => host.status().clients.find((client) => client.id === sessionId)?.clientName,
	});
	diffTools.setEnabled(options.reviewEdits);
	const diagnostics = registerIdeTools(options, privacy, notifier, tools);
	const activity = recorders ? activityOf(options, recorders, privacy) : undefined;
	if (options.vaultTools)
		vaultTools = assembleVaultTools(options, options.vaultTools, { privacy, reviews, currentSelection, activity });

	return {
		host,
		notifier,
		paths,
		privacy,
		tools,
		reviews,
		diffTools,
		diagnostics,
		...(vaultTools ? { vaultTools } : {}),
		...(activity ? { activity } : {}),
		privatePlaces: () => privatePlacesOf(options, privacy),
		dispose: () => {
			notifier.dispose();
			reviews.dispose();
			// Writes the records still waiting; calls that end after this are written at once.
			void activity?.journal.close();
		},
	};
}

/**
 * The IDE channel: the host with the vault adapter's methods (and the vault-tool relay's, when the bridge has vault
 * tools), and the notifier that tells its clients of the selection and of mentions.
 */
function ideChannel(
	options: BridgeAssemblyOptions,
	privacy: VaultPrivacy,
	currentSelection: () => SelectionSnapshot | undefined,
	tools: ToolRegistry,
	recorders: JournalRecorders | undefined,
	vaultTools: () => VaultToolServer | undefined,
): { host: BridgeHost; notifier: Notifier } {
	const { paths, ports } = options;
	const adapter = new VaultAdapter({
		paths,
		files: privacy.files(ports.files),
		currentSelection,
		maxReadBytes: MAX_READ_FILE_BYTES,
		pageSize: RESOURCES_PAGE_SIZE,
	});
	const host: BridgeHost = new BridgeHost({
		vaultPath: paths.root,
		ideName: options.ideName,
		homeDir: options.homeDir,
		pid: options.pid,
		port: options.port,
		serverInfo: SERVER_INFO,
		tools,
		methods: options.vaultTools
			? withRelayMethods(adapter.methods(), vaultTools, () =>
					bridgePrivacy(options.privacyRules(), options.configFolder),
				)
			: adapter.methods(),
		isRelayClient: (client) => client.name === VAULT_TOOLS_RELAY_CLIENT_NAME,
		capabilities: { resources: {} },
		healthSweepIntervalMs: options.healthSweepIntervalMs,
		scheduleInterval: options.scheduleInterval,
		log: options.log,
		trace: options.trace,
		onStatusChange: options.onStatusChange,
		onClientReady: (sessionId) => notifier.clientReady(sessionId),
		...(recorders ? { observer: () => recorders.ide() } : {}),
	});
	const notifier: Notifier = new Notifier({
		broadcast: (method, params) => host.broadcast(method, params),
		notifyClient: (sessionId, method, params) => host.notify(sessionId, method, params),
		hasClients: () => host.hasInitializedClients(),
		currentSelection,
		privacy,
		debounceMs: options.debounceMs,
		welcomeDelayMs: CLIENT_WELCOME_DELAY_MS,
		maxQueuedMentions: MAX_QUEUED_MENTIONS,
		queuedMentionTtlMs: QUEUED_MENTION_TTL_MS,
		queuedMentionSpacingMs: QUEUED_MENTION_SPACING_MS,
	});
	return { host, notifier };
}

/** The read-only workspace tools and getDiagnostics, over the privacy boundary; returns getDiagnostics' engine. */
function registerIdeTools(
	options: BridgeAssemblyOptions,
	privacy: VaultPrivacy,
	notifier: Notifier,
	tools: ToolRegistry,
): DiagnosticsEngine {
	const { paths, ports } = options;
	const workspaceTools = createWorkspaceTools({
		paths,
		workspace: privateWorkspace(ports.workspace, privacy),
		vaultName: options.vaultName,
		latestSelection: privacy.selection(() => notifier.latestSelection),
		readText: privacy.textReader(ports.readText ?? readTextIfExists),
	});
	for (const tool of workspaceTools) tools.register(tool);
	const diagnostics = new DiagnosticsEngine(privacy.notes(ports.notes));
	tools.register(createGetDiagnosticsTool({ diagnostics, paths }));
	return diagnostics;
}

/** The activity journal's side of the bridge: its recorders, the write privacy decision, and undo where it can run. */
function activityOf(
	options: BridgeAssemblyOptions,
	recorders: JournalRecorders,
	privacy: VaultPrivacy,
): NonNullable<Bridge["activity"]> {
	return {
		journal: recorders.journal,
		recorders,
		writer: new JournalWriter({
			journal: recorders.journal,
			isPrivate: writePrivacy(privacy, options.journal?.yaml ?? options.vaultTools?.yaml),
			bytes: noteBytes(options.ports.files),
		}),
		...undoOf(options, recorders.journal, privacy),
	};
}

/** The places a shell command must not reach, as the privacy rules and the notes are now. */
function privatePlacesOf(options: BridgeAssemblyOptions, privacy: VaultPrivacy): ReturnType<Bridge["privatePlaces"]> {
	const { folders, tags } = options.privacyRules();
	const notes = [...options.ports.notes.notePaths()].filter(
		(path) => !privacy.isInPrivateFolder(path) && privacy.hidesListed(path),
	);
	return {
		folders: [...folders],
		tags: [...tags],
		notes,
		...(options.configFolder !== undefined && { configFolder: options.configFolder }),
	};
}

/**
 * The vault tools over the bridge's parts: the IDE tools' privacy decision (the same rules and the same tag
 * reader, or one the root vouches for), writes reviewed through the same pending reviews as `openDiff` unless
 * review is off, and the active note from the privacy-checked selection.
 */
function assembleVaultTools(
	options: BridgeAssemblyOptions,
	vaultOptions: VaultToolsAssemblyOptions,
	bridge: {
		privacy: VaultPrivacy;
		reviews: PendingReviews;
		currentSelection: () => SelectionSnapshot | undefined;
		activity: Bridge["activity"];
	},
): VaultToolServer {
	const { paths } = options;
	const { privacy, reviews, currentSelection, activity } = bridge;
	const recorders = activity?.recorders;
	// Every vault-tool write reaches disk through this index: with a journal, each is recorded there for undo.
	const index = activity
		? new JournaledVaultIndex({ index: vaultOptions.index, writer: activity.writer })
		: vaultOptions.index;
	const vault = privacy.visibleVault(index);
	const reviewWrites = vaultOptions.reviewWrites ?? (() => true);
	const shared: VaultToolsShared = {
		vault,
		activeNote: { current: () => activeNoteOf(currentSelection(), paths) },
	};
	const registry = createVaultToolRegistry({
		vault,
		yaml: vaultOptions.yaml,
		review: () => (reviewWrites() ? reviews : undefined),
		...(vaultOptions.writesUnavailable ? { writesUnavailable: vaultOptions.writesUnavailable } : {}),
		activeNote: shared.activeNote,
		...(vaultOptions.textCap !== undefined ? { textCap: vaultOptions.textCap } : {}),
		...(vaultOptions.regex ? { regex: vaultOptions.regex } : {}),
	});
	const content = vaultOptions.content?.(shared);
	const methods = new Map([...(content?.methods ?? []), ...(vaultOptions.methods ?? [])]);
	const capabilities = { ...content?.capabilities, ...vaultOptions.capabilities };
	return new VaultToolServer({
		registry,
		...(methods.size > 0 ? { methods } : {}),
		...(Object.keys(capabilities).length > 0 ? { capabilities } : {}),
		instructions: VAULT_TOOLS_INSTRUCTIONS,
		log: options.log,
		...(recorders
			? {
					observer: (transport: "session" | "http" | "relay", sessionId: number) =>
						recorders.vaultTools(transport, sessionId),
				}
			: {}),
	});
}

/** The journal's recorders, with the bridge's privacy boundary deciding what an argument may name. */
function journalRecorders(options: BridgeAssemblyOptions, privacy: VaultPrivacy): JournalRecorders {
	const journalOptions = options.journal;
	if (!journalOptions) throw new Error("no journal");
	const references = noteReferences(privacy, linkResolver(options.vaultTools?.index), pathLocator(options.paths));
	return new JournalRecorders(createJournal(journalOptions, privacy, options.log), references);
}

/** Undo and the panel's rewind over the root's writes and the vault tools' index (its link-safe rename); none without either. */
function undoOf(
	options: BridgeAssemblyOptions,
	journal: Journal,
	privacy: VaultPrivacy,
): { undo?: Undo; rewind?: TurnRewind } {
	const writes = options.journal?.undo;
	const index = options.vaultTools?.index;
	if (!writes || !index) return {};
	const bytes = noteBytes(options.ports.files);
	const vault: UndoVault = {
		readBytes: (path) => bytes.readBytes(path),
		writeBytes: (path, data, expectedHash) => writes.writeBytes(path, data, expectedHash),
		trash: (path) => writes.trash(path),
		pathProblem: undoPathCheck(privacy),
		exists: (path) => index.exists(path),
		renameNote: async (from, to) => {
			await index.refresh();
			await index.renameNote(from, to);
		},
	};
	return { undo: new Undo(journal, vault), rewind: new TurnRewind(journal, vault) };
}

/** A note's bytes from the root's files port; undefined when there is no such file. */
function noteBytes(files: VaultFileBytes): NoteBytes {
	return {
		readBytes: async (path) => {
			if ((await files.stat(path)) === undefined) return undefined;
			try {
				return await files.readBytes(path);
			} catch {
				return undefined;
			}
		},
	};
}

/** The selection as `active_note` reports it; undefined when no note inside the vault is open. */
function activeNoteOf(snapshot: SelectionSnapshot | undefined, paths: VaultPaths): ActiveNote | undefined {
	if (!snapshot) return undefined;
	let relative: string;
	try {
		relative = paths.resolve(snapshot.filePath).relative;
	} catch {
		return undefined;
	}
	const { start, end } = snapshot.selection;
	return { path: relative, selection: { from: { ...start }, to: { ...end }, text: snapshot.text } };
}

/**
 * The IDE channel's methods plus the vault-tool relay's (the server is assembled after the host that serves them),
 * with the privacy the bridge applies, which a relay checks before it forwards a call.
 */
function withRelayMethods(
	methods: ReadonlyMap<string, MethodHandler>,
	server: () => VaultToolServer | undefined,
	privacy: () => BridgePrivacy,
): ReadonlyMap<string, MethodHandler> {
	const combined = new Map(methods);
	const relay = vaultToolRelayMethods(
		{
			request: (method, params, context) => {
				const current = server();
				if (!current)
					throw new JsonRpcError(
						ErrorCode.InternalError,
						"Internal error: the vault tools are not ready yet",
					);
				return current.request(method, params, context);
			},
		},
		privacy,
	);
	for (const [name, handler] of relay) combined.set(name, handler);
	return combined;
}
