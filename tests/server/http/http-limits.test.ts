import {
	HTTP_BODY_TIMEOUT_MS,
	HTTP_CALL_LIMIT_MS,
	HTTP_HEADERS_TIMEOUT_MS,
	MAX_HTTP_BODY_BYTES,
} from "../../../src/server/http/http-limits";

describe("HTTP limits", () => {
	it("reads at most 1 MiB of body", () => {
		expect(MAX_HTTP_BODY_BYTES).toBe(1_048_576);
	});

	it("answers a call before Claude Code's own 60 s limit for HTTP MCP calls gives up", () => {
		expect(HTTP_CALL_LIMIT_MS).toBeLessThan(60_000);
		expect(HTTP_CALL_LIMIT_MS).toBeGreaterThan(HTTP_BODY_TIMEOUT_MS);
	});

	it("gives a client less time for its headers than for its body", () => {
		expect(HTTP_HEADERS_TIMEOUT_MS).toBeLessThan(HTTP_BODY_TIMEOUT_MS);
	});
});
