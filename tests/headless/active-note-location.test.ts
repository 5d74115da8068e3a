import { mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ActiveNoteLocation } from "../../src/headless/active-note-location";
import { nodeFileSystem, type PathFileSystem } from "../../src/vault/path-identity";
import { VaultPathError, VaultPaths } from "../../src/vault/vault-paths";
import { makeTempDir } from "../helpers/temp-dir";

/*
 * Each test: outside/ (a folder that is not the vault) and vault/Notes/Plan.md, vault/Top.md, vault/Secret/Hidden.md.
 * The note is located once, then something on its way is swapped in the same turn (no watcher could have told),
 * and the next locate must answer as a first resolution would.
 */
describe("ActiveNoteLocation", () => {
	let temp: ReturnType<typeof makeTempDir>;
	let vault: string;
	let outside: string;
	let realpaths: string[];
	let notes: ActiveNoteLocation;

	beforeEach(() => {
		temp = makeTempDir("active-note");
		vault = join(temp.path, "vault");
		outside = join(temp.path, "outside");
		mkdirSync(join(vault, "Notes"), { recursive: true });
		mkdirSync(join(vault, "Secret"));
		mkdirSync(outside);
		writeFileSync(join(vault, "Notes", "Plan.md"), "the plan\n");
		writeFileSync(join(vault, "Top.md"), "top\n");
		writeFileSync(join(vault, "Secret", "Hidden.md"), "hidden\n");
		realpaths = [];
		const counting: PathFileSystem = {
			...nodeFileSystem,
			realpath: (path) => {
				realpaths.push(path);
				return nodeFileSystem.realpath(path);
			},
		};
		notes = new ActiveNoteLocation(new VaultPaths(vault, counting));
	});
	afterEach(() => temp?.remove());

	it("locates the same note again without a second realpath while nothing on its way changed", () => {
		const first = notes.locate("Notes/Plan.md");
		const asked = realpaths.length;
		const again = notes.locate("Notes/Plan.md");
		expect(again.location).toEqual({ relative: "Notes/Plan.md", absolute: join(vault, "Notes", "Plan.md") });
		expect(again.location).toEqual(first.location);
		expect(again.stats.size).toBe("the plan\n".length);
		expect(realpaths.length).toBe(asked);
	});

	it("refuses the note once its folder became a symbolic link that leads out of the vault (folder moved out)", () => {
		notes.locate("Notes/Plan.md");
		// The same file (same inode) now reached through a link out of the vault.
		renameSync(join(vault, "Notes"), join(outside, "Notes"));
		symlinkSync(join(outside, "Notes"), join(vault, "Notes"), "dir");
		expect(() => notes.locate("Notes/Plan.md")).toThrow(VaultPathError);
		expect(() => notes.locate("Notes/Plan.md")).toThrow(
			"Path is outside the vault: Notes/Plan.md (a symbolic link leads out of it)",
		);
	});

	it("refuses the note once it became a symbolic link to a file outside the vault", () => {
		notes.locate("Top.md");
		writeFileSync(join(outside, "Top.md"), "not the vault's\n");
		unlinkSync(join(vault, "Top.md"));
		symlinkSync(join(outside, "Top.md"), join(vault, "Top.md"));
		expect(() => notes.locate("Top.md")).toThrow(
			"Path is outside the vault: Top.md (a symbolic link leads out of it)",
		);
	});

	it("reports where a note leads once it became a symbolic link to another note of the vault (privacy judges both paths)", () => {
		notes.locate("Top.md");
		unlinkSync(join(vault, "Top.md"));
		symlinkSync(join(vault, "Secret", "Hidden.md"), join(vault, "Top.md"));
		expect(notes.locate("Top.md").location).toEqual({
			relative: "Top.md",
			absolute: join(vault, "Top.md"),
			realRelative: "Secret/Hidden.md",
		});
	});

	it("reports where a folder leads once it became a symbolic link to another folder of the vault", () => {
		notes.locate("Notes/Plan.md");
		rmSync(join(vault, "Notes"), { recursive: true });
		writeFileSync(join(vault, "Secret", "Plan.md"), "secret plan\n");
		symlinkSync(join(vault, "Secret"), join(vault, "Notes"), "dir");
		expect(notes.locate("Notes/Plan.md").location).toMatchObject({
			relative: "Notes/Plan.md",
			realRelative: "Secret/Plan.md",
		});
	});

	it("resolves again when another file took the note's place (new inode), and when its folder became a file", () => {
		notes.locate("Notes/Plan.md");
		const asked = realpaths.length;
		writeFileSync(join(vault, "Notes", "Plan.md.new"), "a new plan\n");
		renameSync(join(vault, "Notes", "Plan.md.new"), join(vault, "Notes", "Plan.md"));
		expect(notes.locate("Notes/Plan.md").stats.size).toBe("a new plan\n".length);
		expect(realpaths.length).toBeGreaterThan(asked);
		rmSync(join(vault, "Notes"), { recursive: true });
		writeFileSync(join(vault, "Notes"), "now a file");
		expect(() => notes.locate("Notes/Plan.md")).toThrow();
	});

	it("answers a missing note, a folder and a path outside the vault as a first resolution does", () => {
		expect(() => notes.locate("Nope.md")).toThrow("No note Nope.md in the vault");
		expect(() => notes.locate("Notes")).toThrow("Notes is a folder, not a note");
		expect(() => notes.locate("../outside/x.md")).toThrow("Path is outside the vault: ../outside/x.md");
		notes.locate("Top.md");
		unlinkSync(join(vault, "Top.md"));
		expect(() => notes.locate("Top.md")).toThrow("No note Top.md in the vault");
	});

	it("never keeps a note reached through a symbolic link inside the vault: each locate resolves it again", () => {
		symlinkSync(join(vault, "Notes"), join(vault, "Linked"), "dir");
		expect(notes.locate("Linked/Plan.md").location.realRelative).toBe("Notes/Plan.md");
		const asked = realpaths.length;
		notes.locate("Linked/Plan.md");
		expect(realpaths.length).toBeGreaterThan(asked);
	});
});
