import type { Notifier } from "../src/bridge/notifier";
import { selectionSnapshot } from "../src/bridge/selection";
import { alternate, type AlternationPlan, type Comparison } from "./alternation";
import type { Sides } from "./round-trips";
import { elapsedMs } from "./stats";

/** Milliseconds from `trigger` to the client receiving the next `method` notification. */
async function timedNotification(client: Sides["bridge"], method: string, trigger: () => void): Promise<number> {
	const received = client.nextNotification(method);
	const start = performance.now();
	trigger();
	await received;
	return elapsedMs(start);
}

/**
 * Editor event → `selection_changed` at the client, debounce excluded (the gesture ends: selectionChanged then
 * flush), against the raw server sending the same notification.
 */
export function measureSelectionChanged(sides: Sides, notifier: Notifier, notePath: string, plan: AlternationPlan): Promise<Comparison> {
	let counter = 0;
	// A new range every time: the notifier drops a selection equal to the last one sent.
	const nextSnapshot = () => {
		const line = counter++;
		return selectionSnapshot(notePath, `selected text ${line}`, { line, character: 0 }, { line, character: 16 });
	};
	return alternate(
		plan,
		() => timedNotification(sides.raw, "selection_changed", () => sides.rawServer.broadcast("selection_changed", nextSnapshot())),
		() =>
			timedNotification(sides.bridge, "selection_changed", () => {
				notifier.selectionChanged(nextSnapshot());
				notifier.flush();
			}),
	);
}

/** Tagging a note → `at_mentioned` at the client, against the raw server sending the same notification. */
export function measureAtMentioned(sides: Sides, notifier: Notifier, notePath: string, plan: AlternationPlan): Promise<Comparison> {
	const mention = { filePath: notePath, lineStart: 2, lineEnd: 4 };
	return alternate(
		plan,
		() => timedNotification(sides.raw, "at_mentioned", () => sides.rawServer.broadcast("at_mentioned", mention)),
		() =>
			timedNotification(sides.bridge, "at_mentioned", () => {
				if (notifier.mention(mention) !== "sent") throw new Error("at_mentioned was not sent");
			}),
	);
}
