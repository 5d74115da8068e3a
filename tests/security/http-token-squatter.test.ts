import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectHeaders, savedHttpConfig } from "../helpers/headers-helper";
import { HeadlessProcess } from "../helpers/headless-process";
import { freePort, postPing, squat } from "../helpers/port-squatter";
import { makeTempDir } from "../helpers/temp-dir";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/**
 * Issue 15 finding 5: the vault tools' HTTP port is fixed per vault, so while the bridge is off any local program
 * can listen on it and collect the `Authorization: Bearer …` Claude Code sends. Run against the built headless
 * host (dist/headless.cjs) with the configuration `mcp-config http` prints, used as Claude Code 2.1.330 uses it
 * (`connectHeaders`: static headers plus what its `headersHelper` prints, run at every connect).
 */
describe("a program squatting the vault tools' HTTP port while the bridge is off", () => {
	jest.setTimeout(60_000);
	let temp: { path: string; remove: () => void };
	let home: string;
	let vault: string;
	let port: number;
	const hosts: HeadlessProcess[] = [];

	beforeEach(async () => {
		temp = makeTempDir("http-squatter");
		home = join(temp.path, "home");
		vault = join(temp.path, "My vault");
		mkdirSync(home);
		mkdirSync(vault);
		writeFileSync(join(vault, "note.md"), "# Note\n");
		port = await freePort();
	}, FIXTURE_TIMEOUT_MS);

	afterEach(() => {
		for (const host of hosts.splice(0)) host.kill();
		temp?.remove();
	});

	const startHost = async (): Promise<HeadlessProcess> => {
		const host = await HeadlessProcess.start({ vault, home, args: ["--mcp-port", String(port)] });
		hosts.push(host);
		await host.waitForOutput(/(MCP \(vault tools\): http:\/\/127\.0\.0\.1:\d+\/mcp)/);
		return host;
	};

	it("holds only a token the restarted bridge refuses (401), while the saved configuration connects again", async () => {
		const first = await startHost();
		const entry = await savedHttpConfig(first);
		const session = await connectHeaders(entry, home);
		expect(await postPing(entry.url, session)).toBe(200);
		await first.quit();

		// A Claude Code session that connected before keeps sending what it has: the squatter gets that token.
		const squatter = await squat(port);
		await postPing(entry.url, session);
		await squatter.close();
		expect(squatter.captured).toEqual([expect.stringMatching(/^Bearer \S+$/) as unknown]);
		const [stolen = ""] = squatter.captured;

		await startHost();
		expect(await postPing(entry.url, { Authorization: stolen })).toBe(401);
		// The same saved entry, on the next connect (Claude Code runs the helper again after a 401).
		expect(await postPing(entry.url, await connectHeaders(entry, home))).toBe(200);
	});

	it("gets no token from a client that connects while the bridge is off", async () => {
		const first = await startHost();
		const entry = await savedHttpConfig(first);
		await first.quit();

		const squatter = await squat(port);
		await postPing(entry.url, await connectHeaders(entry, home));
		await squatter.close();
		expect(squatter.captured).toEqual([]);
	});
});
