import { existsSync } from "node:fs";
import type { NoteReference, NoteReferences } from "../journal/argument-summary";
import { CallRecorder } from "../journal/call-recorder";
import { FolderJournalStore } from "../journal/folder-journal-store";
import type { JournalConversation } from "../journal/journal-conversation";
import { installedPluginJournalFolder, journalFolder } from "../journal/journal-folder";
import { Journal } from "../journal/journal";
import { deviceKey } from "../journal/device-key";
import { JournalSeal } from "../journal/journal-seal";
import { OUTSIDE_THE_VAULT, pathFormProblem } from "../journal/record-paths";
import type { Surface } from "../journal/journal-records";
import type { JournalBounds, JournalStore } from "../journal/journal-store";
import { outcomeClassifier } from "../journal/outcome-classifier";
import { referencesPerTurn } from "../journal/references-per-turn";
import type { UndoVault } from "../journal/undo";
import { isOpenDiffRejection } from "../ide/tools/open-diff";
import type { RequestObserver } from "../protocol/request-observer";
import { REJECTED_BY_USER } from "../vault-tools/kit/ports";
import { VAULT_TOOLS_RELAY_CLIENT_NAME, VAULT_TOOLS_RELAY_METHODS } from "../vault-tools/serve/relay-methods";
import type { VaultIndex } from "../vault/notes/vault-index";
import type { YamlCodec } from "../shared/yaml-codec";
import { noteTags } from "../vault/markdown/note-tags";
import { PLUGIN_ID } from "../vault/privacy/config-folder-settings";
import type { VaultPrivacy } from "../vault/privacy/vault-privacy";
import type { VaultLocation, VaultPaths } from "../vault/vault-paths";

/** What a root gives for the activity journal: where it is kept, and how undo writes in its vault. */
export interface JournalAssemblyOptions {
	store: JournalStore;
	/** This device's seal (`deviceJournalSeal`): without it, records are written unsealed and nothing can be undone. */
	seal?: JournalSeal;
	bounds?: Partial<JournalBounds>;
	/**
	 * The YAML a note's frontmatter tags are read with when a write is judged private by the text it left (default:
	 * the vault tools' codec; without either, a write is judged by its path alone).
	 */
	yaml?: YamlCodec;
	/** Undo's own writes: exact bytes (only over an unchanged note) and the trash. Without them, nothing can be undone. */
	undo?: Pick<UndoVault, "writeBytes" | "trash">;
}

/**
 * A vault tool's answer to a write the user rejected: "Not applied: …" or "Not created: …" followed by the review's
 * reason. Only the start is read: a note's text that quotes the reason (a `read_note` answer) is no rejection, and a
 * long answer is not searched.
 */
const USER_REJECTION = new RegExp(`^Not (?:applied|created): ${REJECTED_BY_USER}`);

/** The one classifier of every surface: the IDE review's rejection and the vault tools' rejection are the user's. */
export const classifyOutcome = outcomeClassifier((text) => isOpenDiffRejection(text) || USER_REJECTION.test(text));

/** Where a path argument (absolute, relative or `file://`) leads in the vault, and whether a file is there. */
export interface PathLocator {
	locate(value: string): VaultLocation | undefined;
	exists(location: VaultLocation): boolean;
}

/** The locator over the vault's paths: undefined for a path outside the vault or not a path at all. */
export function pathLocator(paths: VaultPaths): PathLocator {
	return {
		locate: (value) => {
			try {
				return paths.resolve(value);
			} catch {
				return undefined;
			}
		},
		exists: (location) => existsSync(location.absolute),
	};
}

/**
 * What a call's path-like arguments name, by the vault's privacy boundary: a link or note name as the vault's own
 * index resolves it (private notes included, so their names are recognised and withheld), else a path (absolute,
 * relative or `file://`) as `VaultPrivacy` judges it. A path with no file (a new note's, a moved note's old one) has
 * no tags to judge: the rules that need no file decide, as for a new note's path in the vault tools.
 */
export function noteReferences(
	privacy: VaultPrivacy,
	resolve: (value: string) => string | undefined,
	paths: PathLocator,
): NoteReferences {
	return {
		classify(value: string): NoteReference {
			const linked = resolve(value);
			if (linked !== undefined) return privacy.hidesListed(linked) ? "private" : { path: linked };
			const location = paths.locate(value);
			if (location === undefined) return undefined;
			if (!privacy.hidesPath(location)) return { path: location.relative };
			const byFolder =
				privacy.isInPrivateFolder(location.relative) ||
				(location.realRelative !== undefined && privacy.isInPrivateFolder(location.realRelative));
			return byFolder || paths.exists(location) ? "private" : { path: location.relative };
		},
	};
}

/** A link target from an argument: `[[Note#Part|alias]]` → `Note`; undefined when the index resolves nothing. */
export function linkResolver(index: VaultIndex | undefined): (value: string) => string | undefined {
	return (value) => {
		if (!index) return undefined;
		const target =
			value
				.trim()
				.replace(/^!?\[\[/, "")
				.replace(/\]\]$/, "")
				.split("|")[0]
				?.split("#")[0]
				?.trim() ?? "";
		if (target === "" || target.includes("://")) return undefined;
		return index.resolveLink(target, "");
	};
}

/** The recorders of one bridge: a new session per IDE connection and per stdio session, one for HTTP, one per relay connection. */
export class JournalRecorders {
	private readonly relays = new Map<number, CallRecorder>();
	private http: CallRecorder | undefined;
	/**
	 * What a value names, shared by every session's recorder (the records of one batch, whatever their session, judge
	 * a value once) and the panel's conversation titles.
	 */
	readonly references: NoteReferences;

	constructor(
		readonly journal: Journal,
		references: NoteReferences,
	) {
		this.references = referencesPerTurn(references);
	}

	/** An IDE connection's recorder; the relay's methods are recorded by the vault tools' server instead. */
	ide(): RequestObserver {
		const recorder = this.recorder("ide");
		return {
			started: (request) =>
				request.method.startsWith("vaultTools/") || request.method === VAULT_TOOLS_RELAY_METHODS.privacy
					? undefined
					: recorder.started(request),
		};
	}

	/** For `VaultToolServer`: the transport that carries a call. */
	vaultTools(transport: "http" | "relay" | "session", sessionId: number): RequestObserver {
		if (transport === "http") return (this.http ??= this.recorder("vault-tools-http"));
		if (transport === "session") return this.recorder("vault-tools-stdio");
		let recorder = this.relays.get(sessionId);
		if (!recorder) {
			recorder = this.recorder("vault-tools-relay", {
				client: VAULT_TOOLS_RELAY_CLIENT_NAME,
				connection: sessionId,
			});
			this.relays.set(sessionId, recorder);
			// Connection ids are not reused within a run; only the newest few relays are remembered.
			if (this.relays.size > 64) this.relays.delete(this.relays.keys().next().value ?? sessionId);
		}
		return recorder;
	}

	recorder(
		surface: Surface,
		extra: {
			client?: string;
			connection?: number;
			keep?: (id: string) => boolean;
			conversation?: JournalConversation;
			turn?: () => string | undefined;
		} = {},
	): CallRecorder {
		return new CallRecorder({
			journal: this.journal,
			surface,
			references: this.references,
			classify: classifyOutcome,
			...extra,
		});
	}
}

/** The journal of a vault: records sealed with this device's key, and read back through the vault's privacy boundary. */
export function createJournal(
	options: JournalAssemblyOptions,
	privacy: VaultPrivacy,
	log?: (message: string) => void,
): Journal {
	return new Journal({
		store: options.store,
		...(options.bounds ? { bounds: options.bounds } : {}),
		...(log ? { log } : {}),
		...(options.seal ? { seal: options.seal } : {}),
		checkPath: recordPathCheck(privacy),
	});
}

/**
 * The journal's privacy decision for a write, the same for every surface's writes (vault tools, the panel's Edit and
 * Write): a note private by its path, or, given the text it holds after the write, by that text's tags (a write
 * that adds a private tag makes its note private from that write on).
 */
export function writePrivacy(
	privacy: VaultPrivacy,
	yaml: YamlCodec | undefined,
): (path: string, text?: string) => boolean {
	return (path, text) =>
		text === undefined || yaml === undefined
			? privacy.hidesListed(path)
			: privacy.hidesListedWithTags(path, noteTags(text, yaml));
}

export const PRIVATE_OR_CONFIG = "a private note or a file of the config folder";

/**
 * What a journal record read back may name: no private note, nothing hidden (the config folder, the trash), as the
 * vault's privacy boundary judges the path as listed. The record's own form is the journal's check.
 */
export function recordPathCheck(privacy: VaultPrivacy): (path: string) => string | undefined {
	return (path) => (privacy.hidesListed(path) ? PRIVATE_OR_CONFIG : undefined);
}

/**
 * What undo may touch, judged just before it acts: a path that is the vault path it says (no link on the way leads
 * out of the vault) and that the privacy boundary does not hide (by its real path too).
 */
export function undoPathCheck(privacy: VaultPrivacy): (path: string) => string | undefined {
	return (path) => {
		const form = pathFormProblem(path);
		if (form !== undefined) return form;
		let location: VaultLocation;
		try {
			location = privacy.paths.resolve(path);
		} catch {
			return OUTSIDE_THE_VAULT;
		}
		if (location.relative !== path) return OUTSIDE_THE_VAULT;
		return privacy.hides(location) ? PRIVATE_OR_CONFIG : undefined;
	};
}

/**
 * This device's seal for a vault's journal (its key in the user's data folder, `device-key.ts`); undefined, with a
 * warning, when no key can be had: then records are written unsealed and nothing can be undone.
 */
export function deviceJournalSeal(
	vaultPath: string,
	environment: Readonly<Record<string, string | undefined>>,
	homeDir: string,
	warn: (message: string) => void,
): JournalSeal | undefined {
	const key = deviceKey(vaultPath, environment, homeDir);
	if ("refused" in key) {
		warn(key.refused);
		return undefined;
	}
	return new JournalSeal(key.key, vaultPath, key.since);
}

/**
 * The journal store of a process that serves a folder (the headless host, the stdio server): the plugin's own
 * journal when the plugin is installed in the vault (so Obsidian's activity view lists these calls too, and can undo
 * their changes), else the vault's folder in the user's data folder. Undefined, with a warning, when that data
 * folder would be inside the vault.
 */
export function folderHostJournalStore(
	vaultPath: string,
	environment: Readonly<Record<string, string | undefined>>,
	homeDir: string,
	warn: (message: string) => void,
): FolderJournalStore | undefined {
	const plugin = installedPluginJournalFolder(vaultPath, PLUGIN_ID);
	if (plugin !== undefined) return new FolderJournalStore(plugin);
	const place = journalFolder(vaultPath, environment, homeDir);
	if ("refused" in place) {
		warn(place.refused);
		return undefined;
	}
	return new FolderJournalStore(place.folder);
}
