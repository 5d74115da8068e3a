import * as crypto from "node:crypto";

jest.mock("node:crypto", () => {
	const actual = jest.requireActual<typeof import("node:crypto")>("node:crypto");
	return { ...actual, timingSafeEqual: jest.fn(actual.timingSafeEqual) };
});

import { createAuthToken, isAuthorised, tokenFingerprint } from "../../src/server/auth";
import { AUTH_TOKEN_BYTES } from "../../src/server/limits";

describe("the auth token", () => {
	it("is 256 random bits as hex, new every time", () => {
		const tokens = new Set(Array.from({ length: 100 }, () => createAuthToken()));
		expect(tokens.size).toBe(100);
		for (const token of tokens) expect(token).toMatch(new RegExp(`^[0-9a-f]{${AUTH_TOKEN_BYTES * 2}}$`));
		expect(AUTH_TOKEN_BYTES * 8).toBeGreaterThanOrEqual(128);
	});

	it("accepts only the exact token", () => {
		const token = createAuthToken();
		expect(isAuthorised(token, token)).toBe(true);
		expect(isAuthorised(token, token.toUpperCase())).toBe(false);
		expect(isAuthorised(token, `${token} `)).toBe(false);
		expect(isAuthorised(token, undefined)).toBe(false);
		expect(isAuthorised(token, "")).toBe(false);
		expect(isAuthorised(token, [token, token])).toBe(false);
		expect(isAuthorised(token, "x".repeat(513))).toBe(false);
	});

	it("compares with timingSafeEqual on equal-length digests, also when the lengths differ (no early exit)", () => {
		const compare = jest.mocked(crypto.timingSafeEqual);
		const token = createAuthToken();
		for (const presented of [token, "short", `${token}${token}`, "0".repeat(token.length)]) {
			compare.mockClear();
			isAuthorised(token, presented);
			expect(compare).toHaveBeenCalledTimes(1);
			const [a, b] = compare.mock.calls[0] as [Buffer, Buffer];
			expect([a.length, b.length]).toEqual([32, 32]);
		}
	});

	it("has a short fingerprint that does not reveal the token", () => {
		const token = createAuthToken();
		const fingerprint = tokenFingerprint(token);
		expect(fingerprint).toMatch(/^[0-9a-f]{8}$/);
		expect(token).not.toContain(fingerprint);
		expect(tokenFingerprint(token)).toBe(fingerprint);
	});
});
