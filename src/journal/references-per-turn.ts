import type { NoteReference, NoteReferences } from "./argument-summary";

/**
 * `references` judging each value once per synchronous run: the records of a batch are summarized together when
 * they are written, and a burst of calls naming the same note then costs one privacy decision (a path's resolution
 * is a file-system call), not one per call. The answers are forgotten at the next microtask, so a value is judged
 * afresh for the next batch: a note made private after a call's record was written is withheld from the next one.
 */
export function referencesPerTurn(references: NoteReferences): NoteReferences {
	let memo: Map<string, NoteReference> | undefined;
	return {
		classify(value: string): NoteReference {
			if (!memo) {
				memo = new Map();
				queueMicrotask(() => {
					memo = undefined;
				});
			}
			if (memo.has(value)) return memo.get(value);
			const reference = references.classify(value);
			memo.set(value, reference);
			return reference;
		},
	};
}
