import type { LaunchPlan } from "./session-launcher";
import type { CliProcess, CliProcessEvents } from "./cli-process";
import type { JsonRecord } from "./json-lines";

/**
 * A `CliProcess` usable at once while the CLI is still being found and checked: what the session writes
 * meanwhile is kept and handed over in order once the process runs; a plan that fails ends the session with its
 * message, as a CLI that never started; ending or killing before the start means it never starts.
 */
export function deferredCliProcess(
	plan: Promise<LaunchPlan>,
	spawn: (plan: Extract<LaunchPlan, { command: unknown }>, events: CliProcessEvents) => CliProcess,
	events: CliProcessEvents,
): CliProcess {
	const pending: JsonRecord[] = [];
	let inputEnded = false;
	let killed: NodeJS.Signals | undefined;
	let running: CliProcess | undefined;
	plan.then(
		(ready) => {
			if ("failure" in ready) return events.exit({ failure: ready.failure, neverStarted: true });
			if (killed !== undefined || inputEnded) return events.exit({ failure: undefined, neverStarted: true });
			running = spawn(ready, events);
			for (const record of pending.splice(0)) running.write(record);
		},
		(error: unknown) =>
			events.exit({
				failure: `Claude Code could not be checked: ${error instanceof Error ? error.message : String(error)}`,
				neverStarted: true,
			}),
	);
	return {
		get pid() {
			return running?.pid;
		},
		write(record) {
			if (running) running.write(record);
			else if (!inputEnded && killed === undefined) pending.push(record);
		},
		endInput() {
			if (running) running.endInput();
			else inputEnded = true;
		},
		kill(signal) {
			if (running) running.kill(signal);
			else killed = signal;
		},
	};
}
