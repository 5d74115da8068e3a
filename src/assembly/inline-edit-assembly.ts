import type { AgentSession } from "../agent/agent-session";
import { InlineEditRun, type AcceptedChange, type ChangeRecorder } from "../agent/inline-edit/inline-edit-run";
import type { InlineEditService } from "../agent/inline-edit/inline-edit-service";
import { describeError } from "../shared/describe-error";
import type { YamlCodec } from "../shared/yaml-codec";
import { noteTags } from "../vault/markdown/note-tags";
import type { Bridge } from "./bridge-assembly";

/** The tool name an accepted inline edit has in the activity journal. */
export const INLINE_EDIT_TOOL = "Inline edit";

export const BRIDGE_OFF_REFUSAL =
	"The bridge is off. Turn it on in this plugin's settings: inline edits run under its private-note rules and are recorded for Undo in its activity journal.";
export const PRIVATE_NOTE_REFUSAL =
	"This note is private (a private folder or tag in Claude Code Bridge's settings), so none of it is sent to Claude.";

export interface InlineEditAssemblyOptions {
	/** The running bridge (its privacy boundary and journal), asked at each use; undefined while it is off. */
	bridge: () => Pick<Bridge, "privacy" | "activity"> | undefined;
	/** Starts a text-only session of the user's Claude Code (the panel's engine, `textOnly`). */
	start: () => AgentSession;
	/** How a note's frontmatter tags are read from the editor's text; without it, a note is judged as last saved. */
	yaml?: YamlCodec;
	now?: () => number;
}

/**
 * Inline edits over the running bridge, with the panel's rules: a note the privacy boundary hides is refused before
 * anything is sent (judged by its path, by its saved tags, and by the tags in the editor's text), and each accepted
 * change is written through the bridge's one journal writer (surface "panel"), so the activity view lists it and
 * Undo puts the note's bytes back. With no journal to record it, nothing is written.
 */
export function assembleInlineEdit(options: InlineEditAssemblyOptions): InlineEditService {
	const refusal = (path: string, text: string): string | undefined => {
		const bridge = options.bridge();
		if (bridge === undefined) return BRIDGE_OFF_REFUSAL;
		const { privacy } = bridge;
		const unavailable = privacy.unavailable();
		if (unavailable !== undefined) return `Nothing is sent to Claude now: ${unavailable}`;
		const byText = options.yaml !== undefined && privacy.hidesListedWithTags(path, noteTags(text, options.yaml));
		return privacy.hidesPath(path) || byText ? PRIVATE_NOTE_REFUSAL : undefined;
	};
	return {
		refusal,
		start: () => new InlineEditRun(options.start(), journalRecorder(options, refusal)),
	};
}

/** One journal session per inline edit, opened with its first accepted change. */
function journalRecorder(
	options: InlineEditAssemblyOptions,
	refusal: (path: string, text: string) => string | undefined,
): ChangeRecorder {
	let session: string | undefined;
	return async (change: AcceptedChange, write: () => Promise<void>) => {
		const refused = refusal(change.path, change.text);
		if (refused !== undefined) throw new Error(refused);
		const activity = options.bridge()?.activity;
		if (activity === undefined) throw new Error(BRIDGE_OFF_REFUSAL);
		const { journal, writer } = activity;
		session ??= journal.newSessionKey();
		const now = options.now ?? (() => performance.now());
		const started = now();
		const id = journal.begin({
			session: { key: session, surface: "panel", client: "claude-code" },
			tool: INLINE_EDIT_TOOL,
			notes: [change.path],
			args: change.summary,
		});
		const duration = (): number => Math.round((now() - started) * 10) / 10;
		try {
			await writer.write({ journalId: id, path: change.path, text: change.text }, write);
		} catch (error) {
			journal.finish(id, {
				outcome: "error",
				detail: describeError(error),
				durationMs: duration(),
				answerBytes: 0,
			});
			throw error;
		}
		journal.finish(id, { outcome: "ok", durationMs: duration(), answerBytes: 0 });
	};
}
