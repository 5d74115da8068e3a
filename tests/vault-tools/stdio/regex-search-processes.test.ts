import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HeadlessProcess } from "../../helpers/headless-process";
import { makeTempDir } from "../../helpers/temp-dir";
import { CATASTROPHIC_QUERY, PROSE_LINE, SETTLES_WITHIN_MS } from "../catastrophic-regex";
import { startStdioServer, type StdioServer, type ToolAnswer } from "./stdio-server-process";

/** Issue 15, finding 3, over the real transports: the built stdio server and the headless host it relays to. */
describe("a catastrophic regex search does not stop the server answering others", () => {
	const temp = makeTempDir("regex-processes");
	const vault = join(temp.path, "Regex vault");
	const home = join(temp.path, "home");
	const servers: StdioServer[] = [];
	const hosts: HeadlessProcess[] = [];

	beforeAll(() => {
		mkdirSync(home);
		mkdirSync(join(vault, "Notes"), { recursive: true });
		writeFileSync(join(vault, "Notes/Prose.md"), `# Prose\n\n${PROSE_LINE}\n`);
		writeFileSync(join(vault, "Notes/Alpha.md"), "# Alpha\n\nAlpha text.\n");
	});
	afterEach(async () => {
		for (const server of servers.splice(0)) await server.close();
		for (const host of hosts.splice(0)) host.kill();
	});
	afterAll(() => temp.remove());

	function expectStopped(answer: ToolAnswer): void {
		expect(answer.isError).toBe(true);
		expect(answer.text).toMatch(/^search: the regular expression did not finish within 3 s and was stopped/);
	}

	it(
		"the stdio server (folder fallback) answers a ping sent after the search first",
		async () => {
			const server = await startStdioServer(vault, home);
			servers.push(server);
			const order: string[] = [];
			const search = server.call("search", { query: CATASTROPHIC_QUERY, mode: "regex" }).then((answer) => {
				order.push("search");
				return answer;
			});
			const ping = server.client.ping().then(() => order.push("ping"));
			const [answer] = await Promise.all([search, ping]);
			expectStopped(answer);
			expect(order).toEqual(["ping", "search"]);
		},
		SETTLES_WITHIN_MS,
	);

	it(
		"the headless host running the relayed search answers its status command first",
		async () => {
			const host = await HeadlessProcess.start({ vault, home });
			hosts.push(host);
			const server = await startStdioServer(vault, home);
			servers.push(server);
			const order: string[] = [];
			const search = server.call("search", { query: CATASTROPHIC_QUERY, mode: "regex" }).then((answer) => {
				order.push("search");
				return answer;
			});
			const status = host
				.waitForTrace(
					(event) => event.direction === "in" && event.method === "vaultTools/call",
					"the relayed search reaching the host",
					SETTLES_WITHIN_MS,
				)
				.then(() => host.status())
				.then(() => order.push("status"));
			const [answer] = await Promise.all([search, status]);
			expectStopped(answer);
			expect(order).toEqual(["status", "search"]);
		},
		SETTLES_WITHIN_MS,
	);
});
