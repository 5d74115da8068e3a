import { ObsidianPanelVault } from "../../../src/obsidian/agent/panel-vault";
import { createIndexedApp } from "../harness/indexed-app";

async function vault(privacyOn = true) {
	const app = await createIndexedApp({ "A/One.md": "x", "A/B/Two.md": "x", "Secret/Three.md": "x", "A/Tagged.md": "#private" });
	return new ObsidianPanelVault(app as never, () =>
		privacyOn ? { hidesListed: (path) => path.startsWith("Secret/") || path === "A/Tagged.md", isInPrivateFolder: (path) => path === "Secret" || path.startsWith("Secret/") } : undefined,
	);
}

describe("ObsidianPanelVault", () => {
	it("offers public notes, then the folders that hold them, never a private note or folder", async () => {
		expect((await vault()).mentionCandidates()).toEqual([
			{ path: "A/B/Two.md", kind: "note" },
			{ path: "A/One.md", kind: "note" },
			{ path: "A", kind: "folder" },
			{ path: "A/B", kind: "folder" },
		]);
	});

	it("offers and attaches nothing while no privacy boundary can judge (the bridge is off)", async () => {
		const panelVault = await vault(false);
		expect(panelVault.mentionCandidates()).toEqual([]);
		expect(panelVault.mayAttach("A/One.md")).toBe(false);
	});

	it("attaches existing public notes only, and reads dropped links and obsidian:// URLs", async () => {
		const panelVault = await vault();
		expect(["A/One.md", "A/Tagged.md", "Secret/Three.md", "A/None.md"].map((path) => panelVault.mayAttach(path))).toEqual([true, false, false, false]);
		expect(panelVault.droppedNote("obsidian://open?vault=V&file=A%2FB%2FTwo")).toBe("A/B/Two.md");
		expect(panelVault.droppedNote("[[One]]")).toBe("A/One.md");
		expect(panelVault.droppedNote("A/One.md")).toBe("A/One.md");
		expect(panelVault.droppedNote("obsidian://open?vault=V&file=Secret%2FThree")).toBeUndefined();
		expect(panelVault.droppedNote("just words")).toBeUndefined();
		expect(panelVault.droppedNote("obsidian://%%bad")).toBeUndefined();
	});
});
