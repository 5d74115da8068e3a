import { isJsonObject } from "../protocol/json-rpc";
import type { ObservedOutcome } from "../protocol/request-observer";
import type { OutcomeClassifier } from "./call-recorder";

/** A refusal as our tools word it: "Refused: …", "<tool>: Refused: …", or a note that is not available. */
const REFUSED = /^(?:[\w/]+: )?Refused\b/;

/**
 * The classifier for our servers' answers: a JSON-RPC error or an `isError` result is an error (a refusal when
 * worded as one); a result the user rejected is recognised by `rejected` (the review's answers); anything else is ok.
 */
export function outcomeClassifier(rejected: (firstText: string) => boolean): OutcomeClassifier {
	return (_tool: string, outcome: ObservedOutcome) => {
		if (outcome.kind === "error")
			return { outcome: REFUSED.test(outcome.message) ? "refused" : "error", message: outcome.message };
		const result = outcome.result;
		if (!isJsonObject(result) || !Array.isArray(result.content)) return { outcome: "ok" };
		const first: unknown = result.content[0];
		const text = isJsonObject(first) && typeof first.text === "string" ? first.text : "";
		if (result.isError === true) return { outcome: REFUSED.test(text) ? "refused" : "error", message: text };
		if (rejected(text)) return { outcome: "rejected", message: text };
		return { outcome: "ok" };
	};
}
