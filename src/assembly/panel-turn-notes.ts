import type { NotesBeforeTurns, TurnNotes } from "../agent/agent-session";
import { PANEL_CLIENT } from "../agent/gate/file-write-gate";
import type { RewindChooser } from "../journal/turn-rewind";
import type { EditReview } from "../review/edit-proposal";
import type { Bridge } from "./bridge-assembly";

/** What the review names as the rewind's tool. */
export const REWIND_TOOL = "Rewind";

/**
 * The panel's rewind of notes over a running bridge: the journal's `TurnRewind` (the changes each turn made, put back
 * byte for byte through undo's writes), with a note the user changed since put to the bridge's review, where they
 * choose between the note now and its text before the turns. Undefined without the journal's undo.
 */
export function panelTurnNotes(bridge: Pick<Bridge, "activity" | "reviews">): TurnNotes | undefined {
	const rewind = bridge.activity?.rewind;
	if (!rewind) return undefined;
	const choose = reviewedChoice(bridge.reviews);
	return {
		plan: (turns) => rewind.plan(new Set(turns)),
		restore: async (turns): Promise<NotesBeforeTurns> => {
			const { restore, review, left } = await rewind.restore(new Set(turns), choose);
			return { restore, review, left };
		},
	};
}

/**
 * A note the user changed after Claude, as a review: their text now against its text before the turns. Accepting the
 * earlier text as it was gives its exact bytes; accepting an edited text gives that text; rejecting keeps the note.
 */
export function reviewedChoice(review: EditReview): RewindChooser {
	const decoder = new TextDecoder();
	return async ({ path, current, earlier }) => {
		const after = decoder.decode(earlier);
		const decision = await review.propose({
			note: path,
			before: decoder.decode(current),
			after,
			proposer: { surface: "undo", client: PANEL_CLIENT, tool: REWIND_TOOL },
			title: `${REWIND_TOOL}: ${path}`,
			hearsReason: false,
			signal: new AbortController().signal,
		});
		if (decision.kind !== "accepted") return undefined;
		return decision.text === after ? earlier : Buffer.from(decision.text, "utf8");
	};
}
