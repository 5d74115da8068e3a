import { readFileSync, statSync } from "node:fs";
import type { BridgeStatus } from "../../src/ide/bridge-host";
import { tokenFingerprint } from "../../src/server/auth";
import type { LockFileContent } from "../../src/server/lock-file";
import { startBridge, type BridgeFixture } from "../helpers/bridge-fixture";
import { connect, connectOrThrow } from "../helpers/test-client";
import { waitUntil } from "../helpers/wait-until";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

describe("BridgeHost.rotateToken over real sockets", () => {
	let fixture: BridgeFixture;
	const statuses: BridgeStatus[] = [];

	beforeEach(async () => {
		statuses.length = 0;
		fixture = await startBridge({ onStatusChange: (status) => statuses.push(status) });
	}, FIXTURE_TIMEOUT_MS);
	afterEach(async () => fixture?.stop());

	const readLock = () => JSON.parse(readFileSync(fixture.lockFilePath, "utf8")) as LockFileContent;

	it("rewrites the same lock file with a new token, still 0600, everything else unchanged", async () => {
		const before = readLock();
		const status = await fixture.host.rotateToken();
		const after = readLock();
		expect(status.lockFilePath).toBe(fixture.lockFilePath);
		expect(after.authToken).not.toBe(before.authToken);
		expect(after.authToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
		expect({ ...after, authToken: "" }).toEqual({ ...before, authToken: "" });
		expect(statSync(fixture.lockFilePath).mode & 0o777).toBe(0o600);
		expect(status.tokenFingerprint).toBe(tokenFingerprint(after.authToken));
		expect(status.tokenFingerprint).not.toBe(tokenFingerprint(before.authToken));
		expect(statuses.at(-1)?.tokenFingerprint).toBe(status.tokenFingerprint);
	});

	it("closes every open session with 1008, initialized or not", async () => {
		const initialized = await connectOrThrow(fixture.port, { token: fixture.token });
		await initialized.initialize();
		const bare = await connectOrThrow(fixture.port, { token: fixture.token });
		await fixture.host.rotateToken();
		const [first, second] = await Promise.all([initialized.closed, bare.closed]);
		expect(first.code).toBe(1008);
		expect(second.code).toBe(1008);
		expect(first.reason).toMatch(/token was rotated.*\/ide/);
		await waitUntil(() => fixture.host.status().clients.length === 0, "every session to close");
		expect(fixture.host.hasInitializedClients()).toBe(false);
	});

	it("refuses the old token with 401 afterwards and accepts the new one", async () => {
		const oldToken = fixture.token;
		await fixture.host.rotateToken();
		const refused = await connect(fixture.port, { token: oldToken });
		expect(refused.kind).toBe("refused");
		if (refused.kind === "refused") expect(refused.status).toBe(401);
		const client = await connectOrThrow(fixture.port, { token: readLock().authToken });
		const answer = await client.initialize();
		expect(answer.result).toMatchObject({ serverInfo: { name: expect.any(String) as unknown } });
		expect(await client.request("ping")).toMatchObject({ result: {} });
		await client.close();
	});

	it("can rotate twice in a row; only the latest token works", async () => {
		const tokens = [fixture.token];
		await fixture.host.rotateToken();
		tokens.push(readLock().authToken);
		await fixture.host.rotateToken();
		tokens.push(readLock().authToken);
		expect(new Set(tokens).size).toBe(3);
		for (const token of tokens.slice(0, 2)) {
			const outcome = await connect(fixture.port, { token });
			expect(outcome.kind === "refused" && outcome.status).toBe(401);
		}
		const client = await connectOrThrow(fixture.port, { token: tokens[2] });
		await client.close();
	});

	it("keeps the same port (the lock file name) across a rotation", async () => {
		const status = await fixture.host.rotateToken();
		expect(status.port).toBe(fixture.port);
		expect(status.state).toBe("listening");
	});

	it("throws when the bridge is not running", async () => {
		await fixture.host.stop();
		await expect(fixture.host.rotateToken()).rejects.toThrow("The bridge is not running");
	});
});
