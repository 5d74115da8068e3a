import type { LaunchPlan } from "../../../src/agent/claude-cli/session-launcher";
import type { CliExit, CliProcess, CliProcessEvents } from "../../../src/agent/claude-cli/cli-process";
import { deferredCliProcess } from "../../../src/agent/claude-cli/deferred-cli-process";
import type { JsonRecord } from "../../../src/agent/claude-cli/json-lines";

const PLAN: LaunchPlan = { command: { command: "/opt/claude", args: ["-p"], verbatimArguments: false } };

function harness(): {
	events: CliProcessEvents;
	exits: CliExit[];
	spawned: { written: JsonRecord[]; ended: boolean; signals: string[] }[];
	spawn: (plan: Extract<LaunchPlan, { command: unknown }>, events: CliProcessEvents) => CliProcess;
} {
	const exits: CliExit[] = [];
	const spawned: { written: JsonRecord[]; ended: boolean; signals: string[] }[] = [];
	return {
		exits,
		spawned,
		events: { message: () => undefined, skipped: () => undefined, exit: (exit) => void exits.push(exit) },
		spawn: () => {
			const child = { written: [] as JsonRecord[], ended: false, signals: [] as string[] };
			spawned.push(child);
			return {
				pid: 7,
				write: (record) => void child.written.push(record),
				endInput: () => void (child.ended = true),
				kill: (signal) => void child.signals.push(signal),
			};
		},
	};
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("deferredCliProcess", () => {
	it("keeps what the session writes while the CLI is checked, and hands it over in order once it runs", async () => {
		let release: (plan: LaunchPlan) => void = () => undefined;
		const h = harness();
		const process = deferredCliProcess(new Promise((resolve) => (release = resolve)), h.spawn, h.events);
		process.write({ n: 1 });
		process.write({ n: 2 });
		expect(process.pid).toBeUndefined();
		release(PLAN);
		await settle();
		process.write({ n: 3 });
		expect(h.spawned).toHaveLength(1);
		expect(h.spawned[0]?.written).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
		expect(process.pid).toBe(7);
	});

	it("ends the session with the plan's message when the CLI cannot run, as a CLI that never started", async () => {
		const h = harness();
		deferredCliProcess(
			Promise.resolve({ failure: "Claude Code was not found on this computer." }),
			h.spawn,
			h.events,
		);
		await settle();
		expect(h.spawned).toEqual([]);
		expect(h.exits).toEqual([{ failure: "Claude Code was not found on this computer.", neverStarted: true }]);
	});

	it("never starts a CLI for a session closed or killed while it was being checked", async () => {
		for (const stop of [
			(process: CliProcess) => process.endInput(),
			(process: CliProcess) => process.kill("SIGTERM"),
		]) {
			const h = harness();
			stop(deferredCliProcess(Promise.resolve(PLAN), h.spawn, h.events));
			await settle();
			expect(h.spawned).toEqual([]);
			expect(h.exits).toEqual([{ failure: undefined, neverStarted: true }]);
		}
	});

	it("reports a check that throws as a failure to start", async () => {
		const h = harness();
		deferredCliProcess(Promise.reject(new Error("EPERM")), h.spawn, h.events);
		await settle();
		expect(h.exits).toEqual([{ failure: "Claude Code could not be checked: EPERM", neverStarted: true }]);
	});
});
