import type { BridgeStatus, ClientStatus } from "../../../src/ide/bridge-host";
import { StatusBar } from "../../../src/obsidian/bridge/status-bar";
import { FakeElement } from "../../__mocks__/obsidian";

const client = (id: number, pid?: number): ClientStatus => ({
	id,
	connectedAt: new Date(0),
	...(pid === undefined ? {} : { pid }),
});

describe("StatusBar", () => {
	let element: FakeElement;
	let bar: StatusBar;
	const shown = () => ({
		text: element.text,
		tooltip: element.attributes.get("aria-label"),
		connected: element.hasClass("is-connected"),
		failed: element.hasClass("is-failed"),
	});
	const colour = () => ["is-off", "is-listening", "is-connected", "is-failed"].filter((cls) => element.hasClass(cls));

	beforeEach(() => {
		element = new FakeElement();
		bar = new StatusBar(element as unknown as HTMLElement);
	});

	it("starts as off, with its own class", () => {
		expect(element.hasClass("claude-code-bridge-status")).toBe(true);
		expect(shown()).toEqual({
			text: "Claude: off",
			tooltip: "Claude Code Bridge is off",
			connected: false,
			failed: false,
		});
	});

	it.each<[string, BridgeStatus, ReturnType<typeof shown>]>([
		[
			"starting",
			{ state: "starting", clients: [] },
			{ text: "Claude: starting…", tooltip: "Claude Code Bridge is starting", connected: false, failed: false },
		],
		[
			"ready without clients: says how to connect",
			{ state: "listening", port: 51234, clients: [] },
			{
				text: "Claude: ready",
				tooltip: "Ready: run claude in the vault's folder and type /ide to connect",
				connected: false,
				failed: false,
			},
		],
		[
			"one client",
			{ state: "listening", port: 51234, clients: [client(1, 4242)] },
			{
				text: "Claude: connected",
				tooltip: "Claude Code is connected to this vault",
				connected: true,
				failed: false,
			},
		],
		[
			"several clients: counted",
			{ state: "listening", port: 51234, clients: [client(1, 4242), client(2)] },
			{
				text: "Claude: 2 connected",
				tooltip: "2 Claude Code sessions are connected",
				connected: true,
				failed: false,
			},
		],
		[
			"failed: with the reason",
			{ state: "failed", clients: [], error: "EACCES: permission denied" },
			{
				text: "Claude: not running",
				tooltip: "Claude Code Bridge could not start: EACCES: permission denied",
				connected: false,
				failed: true,
			},
		],
		[
			"failed without a reason",
			{ state: "failed", clients: [] },
			{
				text: "Claude: not running",
				tooltip: "Claude Code Bridge could not start: unknown error",
				connected: false,
				failed: true,
			},
		],
	])("shows %s", (_what, status, expected) => {
		bar.show(status);
		expect(shown()).toEqual(expected);
	});

	it("drops the connected and failed marks when the state moves on", () => {
		bar.show({ state: "failed", clients: [], error: "x" });
		bar.show({ state: "listening", port: 1, clients: [client(1, 7)] });
		expect(shown()).toMatchObject({ connected: true, failed: false });
		bar.show({ state: "stopped", clients: [] });
		expect(shown()).toEqual({
			text: "Claude: off",
			tooltip: "Claude Code Bridge is off",
			connected: false,
			failed: false,
		});
	});

	it("marks each state with one class, for its theme colour", () => {
		expect(colour()).toEqual(["is-off"]);
		bar.show({ state: "listening", port: 1, clients: [] });
		expect(colour()).toEqual(["is-listening"]);
		bar.show({ state: "listening", port: 1, clients: [client(1, 7), client(2, 8)] });
		expect([element.text, colour()]).toEqual(["Claude: 2 connected", ["is-connected"]]);
		bar.show({ state: "failed", clients: [] });
		expect(colour()).toEqual(["is-failed"]);
		bar.show({ state: "stopped", clients: [] });
		expect(colour()).toEqual(["is-off"]);
	});
});
