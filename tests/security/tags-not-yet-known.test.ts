import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { App as RealApp } from "obsidian";
import { App, type MetadataCache } from "../__mocks__/obsidian";
import type { BridgeStatus } from "../../src/ide/bridge-host";
import { BridgeComponent } from "../../src/obsidian/bridge/bridge-component";
import { DEFAULT_SETTINGS } from "../../src/settings";
import { parseWithTags } from "../obsidian/harness/metadata-parser";
import { connectOrThrow, type TestClient } from "../helpers/test-client";
import { makeTempDir } from "../helpers/temp-dir";
import { pollUntil } from "../helpers/wait-until";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

/**
 * Issue 11, finding 7, through the plugin's own wiring (BridgeComponent, ObsidianNoteStore) on the harness's
 * metadata cache, which like Obsidian's answers null for a note it has not parsed yet. A note synced into the
 * vault with `#private` is not private to a rule that reads tags from that cache until the parse: the CLI pages
 * `resources/list` right after connecting and reads what it lists. Until a note's tags are known it counts as private.
 */

describe("a note whose tags the metadata cache does not know yet counts as private (Obsidian)", () => {
	const temp = makeTempDir("tags-not-yet-known");
	const vaultPath = join(temp.path, "vault");
	const home = join(temp.path, "home");
	let app: App;
	let component: BridgeComponent;
	let client: TestClient;

	beforeAll(async () => {
		mkdirSync(vaultPath);
		mkdirSync(home);
		app = new App(vaultPath, "vault");
		app.vault.contents.set("Notes/known.md", "public and parsed\n");
		app.metadataCache.attach(app.vault as unknown as Parameters<MetadataCache["attach"]>[0], parseWithTags);
		await app.metadataCache.parsePending();
		// Synced in after the cache caught up: Obsidian has not parsed it yet.
		await app.vault.create("Notes/synced.md", "SYNCED-SECRET-4455 #private\n");
		const statuses: BridgeStatus[] = [];
		component = new BridgeComponent({
			app: app as unknown as RealApp,
			vaultPath,
			settings: { ...DEFAULT_SETTINGS, privateFolders: [], privateTags: ["private"] },
			homeDir: home,
			currentSelection: () => undefined,
			onStatusChange: (status) => statuses.push(status),
		});
		component.load();
		const listening = await pollUntil(
			() => statuses.find((status) => status.state === "listening"),
			"the bridge to listen",
		);
		const lock = JSON.parse(readFileSync(listening.lockFilePath ?? "", "utf8")) as { authToken: string };
		client = await connectOrThrow(listening.port ?? 0, { token: lock.authToken });
		await client.initialize();
	}, FIXTURE_TIMEOUT_MS);

	afterAll(async () => {
		await client?.close();
		component?.unload();
		await component?.stopped;
		temp.remove();
	});

	const listed = async (): Promise<string[]> =>
		((await client.request("resources/list", {})).result as { resources: { name: string }[] }).resources.map(
			(resource) => resource.name,
		);
	const read = async (): Promise<string> =>
		JSON.stringify(
			await client.request("resources/read", { uri: pathToFileURL(join(vaultPath, "Notes", "synced.md")).href }),
		);

	it("is neither listed nor readable before the parse, and stays private after it", async () => {
		expect(await listed()).toEqual(["Notes/known.md"]);
		expect(await read()).not.toContain("SYNCED-SECRET-4455");
		expect(JSON.stringify(await client.request("files/read", { path: "Notes/synced.md" }))).not.toContain(
			"SYNCED-SECRET-4455",
		);
		await app.metadataCache.parsePending();
		expect(await listed()).toEqual(["Notes/known.md"]);
		expect(await read()).not.toContain("SYNCED-SECRET-4455");
	});

	it("a public note synced in is listed once its tags are known", async () => {
		await app.vault.create("Notes/later.md", "nothing private here\n");
		expect(await listed()).toEqual(["Notes/known.md"]);
		await app.metadataCache.parsePending();
		expect(await listed()).toEqual(["Notes/known.md", "Notes/later.md"]);
	});
});
