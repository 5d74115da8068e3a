import fs, { mkdirSync, writeFileSync, type WatchListener } from "node:fs";
import { join } from "node:path";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import type { TestClient } from "../helpers/test-client";
import { waitUntil } from "../helpers/wait-until";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/**
 * Issue 14, item 1: the headless host reads its vault through one folder adapter with one watcher set. Every
 * `fs.watch` the host starts is recorded, and the events of those watchers are held back until the test lets them
 * through: a file written after the start reaches the IDE listing, the diagnostics and the vault tools only when
 * that one watcher set reports it.
 */
describe("the headless host watches its vault once", () => {
	const watched: { folder: string; recursive: boolean }[] = [];
	const held: (() => void)[] = [];
	let holding = true;
	let fixture: AssembledBridge;
	let client: TestClient;

	beforeAll(async () => {
		const realWatch = fs.watch.bind(fs);
		jest.spyOn(fs, "watch").mockImplementation(((
			folder: string,
			options: fs.WatchOptions,
			listener: WatchListener<string>,
		) => {
			watched.push({ folder, recursive: options.recursive === true });
			return realWatch(folder, options, (event, filename) => {
				if (holding) held.push(() => listener(event, filename));
				else listener(event, filename);
			});
		}) as unknown as typeof fs.watch);
		fixture = await startAssembledBridge({
			populate: (vault) => {
				mkdirSync(join(vault, "Notes"));
				mkdirSync(join(vault, "Other/Deep"), { recursive: true });
				mkdirSync(join(vault, ".config-folder"));
				writeFileSync(join(vault, "Notes/a.md"), "[[b]] [[gone]]\n");
				writeFileSync(join(vault, "Notes/b.md"), "# B\n");
				writeFileSync(join(vault, "Other/Deep/c.md"), "# C\n");
				writeFileSync(join(vault, ".config-folder/app.json"), "{}");
			},
		});
		client = await fixture.client();
	}, FIXTURE_TIMEOUT_MS);

	afterAll(async () => {
		await fixture?.stop();
		jest.restoreAllMocks();
	});

	const listed = async (): Promise<string[]> => {
		const answer = await client.request("resources/list", {});
		return ((answer.result as { resources: { name: string }[] }).resources ?? [])
			.map((resource) => resource.name)
			.sort();
	};
	const vaultToolNotes = async (): Promise<string> => {
		const server = fixture.bridge.vaultTools;
		if (!server) throw new Error("no vault tools");
		const answer = (
			await server.request(
				"tools/call",
				{ name: "list_notes", arguments: {} },
				{ sessionId: 7, signal: new AbortController().signal },
			)
		).parse() as { content: { text: string }[] };
		return answer.content.map((block) => block.text).join("\n");
	};
	const notesWithProblems = async (): Promise<string[]> =>
		(await fixture.bridge.diagnostics.forVault()).map((note) => note.path).sort();

	it("one watcher per folder of the vault, none recursive, no folder twice (hidden folders left out)", async () => {
		await waitUntil(async () => (await listed()).length === 3, "the first listing", { timeoutMs: 20_000 });
		await notesWithProblems();
		await vaultToolNotes();
		const expected = ["", "Notes", "Other", "Other/Deep"]
			.map((folder) => (folder === "" ? fixture.vaultPath : join(fixture.vaultPath, folder)))
			.sort();
		expect(watched.map((watch) => watch.folder).sort()).toEqual(expected);
		expect(watched.filter((watch) => watch.recursive)).toEqual([]);
	}, 30_000);

	it("a note written after the start reaches the IDE listing, the diagnostics and the vault tools through that watcher set", async () => {
		expect(await notesWithProblems()).toEqual(["Notes/a.md"]);
		writeFileSync(join(fixture.vaultPath, "Notes/new.md"), "[[missing]]\n");
		await waitUntil(() => held.length > 0, "the watcher's event", { timeoutMs: 20_000 });
		// Held back: nobody has looked at the disk on its own.
		expect(await listed()).not.toContain("Notes/new.md");
		expect(await vaultToolNotes()).not.toContain("Notes/new.md");
		expect(await notesWithProblems()).toEqual(["Notes/a.md"]);

		holding = false;
		for (const release of held.splice(0)) release();
		expect(await listed()).toContain("Notes/new.md");
		expect(await vaultToolNotes()).toContain("Notes/new.md");
		expect(await notesWithProblems()).toEqual(["Notes/a.md", "Notes/new.md"]);
		expect(watched).toHaveLength(4);
	}, 30_000);

	it("a folder made after the start gets one watcher, and its notes reach every reader", async () => {
		mkdirSync(join(fixture.vaultPath, "Later"));
		writeFileSync(join(fixture.vaultPath, "Later/late.md"), "[[nowhere]]\n");
		await waitUntil(
			async () => (await listed()).includes("Later/late.md"),
			"the new folder's note in the listing",
			{ timeoutMs: 20_000 },
		);
		expect(await vaultToolNotes()).toContain("Later/late.md");
		expect(await notesWithProblems()).toContain("Later/late.md");
		expect(watched.filter((watch) => watch.folder === join(fixture.vaultPath, "Later"))).toHaveLength(1);
		expect(watched).toHaveLength(5);
	}, 30_000);
});
