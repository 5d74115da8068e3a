import { isLoopbackHost } from "../../src/server/loopback-host";

// The servers' own refusals stay tested end to end: tests/integration/upgrade-rules.test.ts (WebSocket upgrade)
// and tests/server/http/vault-tools-http.test.ts (HTTP). These are the cases of both, and their edges.
describe("isLoopbackHost (DNS rebinding)", () => {
	const PORT = 41234;

	it("accepts 127.0.0.1, localhost and [::1], in any case, without a port or with ours", () => {
		for (const name of ["127.0.0.1", "localhost", "LocalHost", "[::1]"]) {
			expect(isLoopbackHost(name, PORT)).toBe(true);
			expect(isLoopbackHost(`${name}:${PORT}`, PORT)).toBe(true);
		}
	});

	it("refuses another port, a missing header and any other name", () => {
		expect(isLoopbackHost(`127.0.0.1:${PORT + 1}`, PORT)).toBe(false);
		expect(isLoopbackHost(`localhost:${PORT + 1}`, PORT)).toBe(false);
		expect(isLoopbackHost(undefined, PORT)).toBe(false);
		for (const host of [
			`evil.example:${PORT}`,
			`attacker.example:${PORT}`,
			"",
			"127.0.0.2",
			"::1",
			`localhost.evil.example:${PORT}`,
			`evil.localhost:${PORT}`,
			"127.0.0.1:",
			`127.0.0.1:${PORT}x`,
			`127.0.0.1 :${PORT}`,
		]) {
			expect(isLoopbackHost(host, PORT)).toBe(false);
		}
	});

	it("takes no port while the server is not listening", () => {
		expect(isLoopbackHost("localhost", undefined)).toBe(true);
		expect(isLoopbackHost(`localhost:${PORT}`, undefined)).toBe(false);
	});
});
