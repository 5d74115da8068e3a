import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { App as RealApp } from "obsidian";
import { Notifier } from "../../src/ide/notifier";
import { VaultPaths } from "../../src/vault/vault-paths";
import { FolderVault } from "../../src/vault/folder/folder-vault";
import { HeadlessEditor } from "../../src/headless/headless-editor";
import { HeadlessWorkspace } from "../../src/headless/headless-workspace";
import { ObsidianWorkspace } from "../../src/obsidian/editor/obsidian-workspace";
import { makeTempDir } from "../helpers/temp-dir";
import { BrowserWindows } from "../obsidian/harness/cm6-dom";
import { buildWorkspace, closeWorkspace } from "../obsidian/harness/workspace-builder";
import { workspacePortContract } from "./workspace-port.contract";
import { privacyByPath } from "../helpers/path-privacy";

workspacePortContract("headless host", (notes) => {
	const temp = makeTempDir("workspace-contract");
	for (const [path, text] of Object.entries(notes)) {
		const absolute = join(temp.path, ...path.split("/"));
		mkdirSync(dirname(absolute), { recursive: true });
		writeFileSync(absolute, text);
	}
	const paths = new VaultPaths(temp.path);
	const notifier = new Notifier({
		broadcast: () => undefined,
		notifyClient: () => undefined,
		hasClients: () => false,
		currentSelection: () => undefined,
		privacy: privacyByPath(() => false),
		debounceMs: 0,
		welcomeDelayMs: 0,
		maxQueuedMentions: 10,
		queuedMentionTtlMs: 1000,
		queuedMentionSpacingMs: 0,
	});
	const editor = new HeadlessEditor(paths, new FolderVault({ root: paths.root, watch: false }).files, () => notifier);
	return Promise.resolve({
		port: new HeadlessWorkspace(paths, editor),
		location: (relative) => paths.resolve(relative),
		dispose: () => {
			notifier.dispose();
			temp.remove();
			return Promise.resolve();
		},
	});
});

workspacePortContract("Obsidian (fake workspace)", async (notes) => {
	// The selection cases need the notes' real CodeMirror editors, so a DOM is installed.
	const browser = BrowserWindows.install();
	const paths = new VaultPaths("/vault");
	const { app } = await buildWorkspace({ notes, basePath: "/vault" });
	return {
		port: new ObsidianWorkspace(app as unknown as RealApp, paths),
		location: (relative) => paths.resolve(relative),
		dispose: async () => {
			await closeWorkspace(app);
			browser.uninstall();
		},
	};
});
