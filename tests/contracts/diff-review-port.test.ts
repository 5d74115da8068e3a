import type { App as RealApp, WorkspaceLeaf as RealLeaf } from "obsidian";
import { VaultPaths } from "../../src/vault/vault-paths";
import { HeadlessReviewPort } from "../../src/headless/headless-review-port";
import { DIFF_VIEW_TYPE, DiffReviewView } from "../../src/obsidian/review/diff-view";
import { ObsidianReviewPort } from "../../src/obsidian/review/obsidian-review-port";
import type { View } from "../__mocks__/obsidian";
import { buildWorkspace, closeWorkspace } from "../obsidian/harness/workspace-builder";
import { diffReviewPortContract } from "./diff-review-port.contract";

const paths = new VaultPaths("/vault");
const noActions = { accept: () => ({ kind: "accepted" as const }), reject: () => undefined, closed: () => undefined };

diffReviewPortContract("headless host", () => {
	const printed: string[] = [];
	return Promise.resolve({
		port: new HeadlessReviewPort((line) => printed.push(line)),
		location: (relative) => paths.resolve(relative),
		dispose: () => Promise.resolve(),
	});
});

diffReviewPortContract("Obsidian (fake workspace)", async (notes) => {
	const { app } = await buildWorkspace({ notes, tabs: [{ path: Object.keys(notes)[0] ?? "" }] });
	// What Plugin.registerView does for the review view type.
	app.viewRegistry.set(DIFF_VIEW_TYPE, (leaf) => new DiffReviewView(leaf as unknown as RealLeaf) as unknown as View);
	return {
		port: new ObsidianReviewPort(app as unknown as RealApp, noActions),
		location: (relative) => paths.resolve(relative),
		dispose: () => closeWorkspace(app),
	};
});
