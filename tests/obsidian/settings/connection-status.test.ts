import type { BridgeStatus, ClientStatus } from "../../../src/ide/bridge-host";
import {
	describeConnection,
	describeConnectionDetails,
	describeState,
} from "../../../src/obsidian/settings/connection-status";

const AT_TEN = new Date("2026-11-23T10:00:00Z");
const AT_ELEVEN = new Date("2026-11-23T11:00:00Z");
const short = (date: Date) => date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });

function listening(clients: ClientStatus[], warning?: string): BridgeStatus {
	return { state: "listening", port: 40123, clients, ...(warning ? { warning } : {}) };
}

describe("the connection's status in words (the first screen)", () => {
	it("says off, starting, ready, or not running with the reason", () => {
		expect(describeConnection({ state: "stopped", clients: [] })).toBe(
			"Off: Claude Code cannot connect to this vault.",
		);
		expect(describeConnection({ state: "starting", clients: [] })).toBe("Starting…");
		expect(describeConnection(listening([]))).toBe("Ready: no Claude Code session is connected.");
		expect(
			describeConnection({ state: "failed", clients: [], error: "The vault is not on the local file system." }),
		).toBe("Not running: The vault is not on the local file system.");
	});

	it("names Claude Code and when it connected, or how many sessions since the first (clients are listed as they connected)", () => {
		expect(
			describeConnection(listening([{ id: 1, pid: 4242, clientName: "claude-code", connectedAt: AT_TEN }])),
		).toBe(`Connected: Claude Code, since ${short(AT_TEN)}.`);
		expect(describeConnection(listening([{ id: 1, clientName: "zed", connectedAt: AT_TEN }]))).toBe(
			`Connected: zed, since ${short(AT_TEN)}.`,
		);
		expect(
			describeConnection(
				listening([
					{ id: 1, connectedAt: AT_TEN },
					{ id: 2, connectedAt: AT_ELEVEN },
				]),
			),
		).toBe(`Connected: 2 sessions, since ${short(AT_TEN)}.`);
	});

	it("never shows the address, the port or a pid, even when the fixed port was taken", () => {
		const taken = listening(
			[{ id: 1, pid: 4242, clientName: "claude-code", connectedAt: AT_TEN }],
			"Port 4000 is in use; listening on port 40123 instead. Choose another fixed port or leave it empty for a random one.",
		);
		const words = describeConnection(taken);
		expect(words).toContain("The fixed port under Advanced was taken");
		expect(words).not.toMatch(/127\.0\.0\.1|40123|4000|4242|pid/);
	});
});

describe("the connection's details (Advanced)", () => {
	it("gives the address, the warning, and each client with its pid or connection id", () => {
		const details = describeConnectionDetails(
			listening([
				{ id: 1, pid: 4242, clientName: "claude-code", connectedAt: AT_TEN },
				{ id: 2, connectedAt: AT_ELEVEN },
			]),
		);
		expect(details).toBe(
			`Listening on 127.0.0.1:40123. Connected: claude-code (pid 4242) since ${AT_TEN.toLocaleTimeString()}; client (connection 2) since ${AT_ELEVEN.toLocaleTimeString()}.`,
		);
		expect(describeConnectionDetails(listening([]))).toBe(
			"Listening on 127.0.0.1:40123. No Claude Code session is connected.",
		);
		expect(describeState(listening([], "Port 4000 is in use"))).toBe(
			"Listening on 127.0.0.1:40123 (Port 4000 is in use)",
		);
		expect(describeConnectionDetails({ state: "failed", clients: [], error: "EACCES" })).toBe(
			"Could not start: EACCES.",
		);
	});
});
