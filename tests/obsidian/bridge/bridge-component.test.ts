import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { App as RealApp, WorkspaceLeaf as RealLeaf } from "obsidian";
import { App, notices, type View } from "../../__mocks__/obsidian";
import type { BridgeStatus } from "../../../src/ide/bridge-host";
import { BridgeComponent } from "../../../src/obsidian/bridge/bridge-component";
import { DIFF_VIEW_TYPE, DiffReviewView } from "../../../src/obsidian/review/diff-view";
import { DEFAULT_SETTINGS, type BridgeSettings } from "../../../src/settings";
import { connect, connectOrThrow, type TestClient } from "../../helpers/test-client";
import { makeTempDir } from "../../helpers/temp-dir";
import { pollUntil } from "../../helpers/wait-until";

interface Started {
	component: BridgeComponent;
	statuses: BridgeStatus[];
	port: number;
	token: string;
	lockFile: string;
}

describe("BridgeComponent", () => {
	const temp = makeTempDir("bridge-component");
	const vaultPath = join(temp.path, "My vault");
	const home = join(temp.path, "home");
	let app: App;
	let settings: BridgeSettings;
	const clients: TestClient[] = [];
	const components: BridgeComponent[] = [];

	beforeAll(() => {
		mkdirSync(vaultPath);
		mkdirSync(home);
	});
	afterAll(() => temp.remove());
	beforeEach(() => {
		app = new App(vaultPath, "My vault");
		// The review view type, as the plugin registers it (`registerDiffReviewView`).
		app.viewRegistry.set(
			DIFF_VIEW_TYPE,
			(leaf) => new DiffReviewView(leaf as unknown as RealLeaf) as unknown as View,
		);
		for (const [path, text] of [
			["Notes/open.md", "# Open\n"],
			["Secret/diary.md", "dear diary\n"],
		])
			app.vault.contents.set(path, text);
		settings = { ...DEFAULT_SETTINGS, privateFolders: ["Secret"], privateTags: [] };
		notices.length = 0;
	});
	afterEach(async () => {
		await Promise.all(clients.splice(0).map((client) => client.close()));
		for (const component of components.splice(0)) {
			component.unload();
			await component.stopped;
		}
	});

	function build(): { component: BridgeComponent; statuses: BridgeStatus[] } {
		const statuses: BridgeStatus[] = [];
		const component = new BridgeComponent({
			app: app as unknown as RealApp,
			vaultPath,
			settings,
			homeDir: home,
			currentSelection: () => undefined,
			onStatusChange: (status) => statuses.push(status),
		});
		components.push(component);
		return { component, statuses };
	}

	async function start(built = build()): Promise<Started> {
		const { component, statuses } = built;
		component.load();
		const listening = await pollUntil(
			() => statuses.find((status) => status.state === "listening"),
			"the bridge to listen",
		);
		const lockFile = listening.lockFilePath ?? "";
		const lock = JSON.parse(readFileSync(lockFile, "utf8")) as { authToken: string };
		return { component, statuses, port: listening.port ?? 0, token: lock.authToken, lockFile };
	}

	async function client(started: Started): Promise<TestClient> {
		const opened = await connectOrThrow(started.port, { token: started.token });
		clients.push(opened);
		await opened.initialize();
		return opened;
	}

	it("does nothing until loaded, then listens and writes the lock file for this vault", async () => {
		const built = build();
		expect(built.statuses).toEqual([]);
		expect(existsSync(join(home, ".claude", "ide"))).toBe(false);
		const started = await start(built);
		const lock = JSON.parse(readFileSync(started.lockFile, "utf8")) as {
			ideName: string;
			workspaceFolders: string[];
		};
		expect(lock).toMatchObject({ ideName: "Obsidian · My vault", workspaceFolders: [vaultPath] });
		expect(started.lockFile.startsWith(join(home, ".claude", "ide"))).toBe(true);
	});

	it("serves every IDE tool, the review tools as the setting says", async () => {
		const started = await start();
		const names = (await (await client(started)).request("tools/list")).result as { tools: { name: string }[] };
		expect(names.tools.map((tool) => tool.name)).toEqual(
			expect.arrayContaining([
				"openDiff",
				"close_tab",
				"closeAllDiffTabs",
				"openFile",
				"getOpenEditors",
				"getDiagnostics",
			]),
		);
		settings.reviewEditsInObsidian = false;
		const second = await start();
		const without = (await (await client(second)).request("tools/list")).result as { tools: { name: string }[] };
		expect(without.tools.map((tool) => tool.name)).not.toContain("openDiff");
		expect(without.tools.map((tool) => tool.name)).toContain("getOpenEditors");
	});

	it("lists the vault from Obsidian's index, without private notes, following the settings live", async () => {
		const started = await start();
		const claude = await client(started);
		const names = async (): Promise<string[]> =>
			((await claude.request("resources/list")).result as { resources: { name: string }[] }).resources.map(
				(resource) => resource.name,
			);
		expect(await names()).toEqual(["Notes/open.md"]);
		settings.privateFolders = [];
		expect(await names()).toEqual(["Notes/open.md", "Secret/diary.md"]);
		const read = await claude.request("resources/read", {
			uri: pathToFileURL(join(vaultPath, "Secret", "diary.md")).href,
		});
		expect(read.result).toEqual({
			contents: [
				{
					uri: pathToFileURL(join(vaultPath, "Secret", "diary.md")).href,
					mimeType: "text/markdown",
					text: "dear diary\n",
				},
			],
		});
	});

	it("shows openDiff in Obsidian's review view; unloading closes the view, removes the lock file at once and closes the port", async () => {
		const started = await start();
		const claude = await client(started);
		const note = join(vaultPath, "Notes", "open.md");
		claude.send({
			jsonrpc: "2.0",
			id: "diff",
			method: "tools/call",
			params: {
				name: "openDiff",
				arguments: {
					old_file_path: note,
					new_file_path: note,
					new_file_contents: "# Changed\n",
					tab_name: "review",
				},
			},
		});
		const view = await pollUntil(() => {
			const early = claude.messages.find((message) => message.id === "diff");
			if (early) throw new Error(`openDiff answered before a decision: ${JSON.stringify(early)}`);
			return app.workspace
				.getLeavesOfType(DIFF_VIEW_TYPE)
				.map((leaf) => leaf.view)
				.find((one) => one instanceof DiffReviewView && one.pendingReview !== undefined);
		}, "the review view");
		expect(view).toBeInstanceOf(DiffReviewView);

		started.component.unload();
		expect(existsSync(started.lockFile)).toBe(false);
		expect(app.workspace.getLeavesOfType(DIFF_VIEW_TYPE)).toEqual([]);
		await started.component.stopped;
		await claude.closed;
		// The client goes away with the server; a review ended by unloading is never an accept.
		expect(
			claude.messages.filter((message) => message.id === "diff").map((message) => JSON.stringify(message.result)),
		).not.toContainEqual(expect.stringContaining("FILE_SAVED"));
		await expect(connect(started.port, { token: started.token })).rejects.toThrow();
	});

	it("tells the user in a notice when the fixed port is taken, and listens on another", async () => {
		const blocker: Server = createServer();
		await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
		const address = blocker.address();
		const taken = typeof address === "object" && address !== null ? address.port : 0;
		settings.fixedPort = taken;
		try {
			const started = await start();
			expect(started.port).not.toBe(taken);
			await pollUntil(() => (notices.length > 0 ? notices : undefined), "a notice");
			expect(notices).toEqual([
				`Claude Code Bridge: Port ${taken} is in use; listening on port ${started.port} instead. Choose another fixed port or leave it empty for a random one.`,
			]);
		} finally {
			await new Promise<void>((resolve) => blocker.close(() => resolve()));
		}
	});

	it("says so in a notice when the server cannot start", async () => {
		// A home "folder" that is a file: the lock file cannot be written.
		const notAFolder = join(temp.path, "home-is-a-file");
		writeFileSync(notAFolder, "");
		const statuses: BridgeStatus[] = [];
		const component = new BridgeComponent({
			app: app as unknown as RealApp,
			vaultPath,
			settings,
			homeDir: notAFolder,
			currentSelection: () => undefined,
			onStatusChange: (status) => statuses.push(status),
		});
		components.push(component);
		component.load();
		await pollUntil(() => statuses.find((status) => status.state === "failed"), "the start to fail");
		await pollUntil(() => (notices.length > 0 ? notices : undefined), "a notice");
		expect(notices).toEqual([expect.stringMatching(/^Claude Code Bridge could not start: .+/)]);
	});
});
