import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PlanFolder } from "../../../src/agent/gate/plan-folder";
import { makeTempDir } from "../../helpers/temp-dir";

describe("PlanFolder", () => {
	const temp = makeTempDir("plan-folder");
	const config = join(temp.path, "claude");
	const plans = join(config, "plans");
	const vault = join(temp.path, "vault");
	const folder = new PlanFolder(config);

	beforeAll(() => {
		mkdirSync(join(plans, "sub"), { recursive: true });
		mkdirSync(vault);
		writeFileSync(join(plans, "written-before.md"), "# Plan\n");
		writeFileSync(join(vault, "Diary.md"), "private\n");
		symlinkSync(join(vault, "Diary.md"), join(plans, "link.md"));
		linkSync(join(vault, "Diary.md"), join(plans, "hard.md"));
		// The config folder reached through a link: the CLI may name it either way.
		symlinkSync(config, join(temp.path, "config-link"));
	});
	afterAll(() => temp.remove());

	it("holds a Markdown file directly in the CLI's plans folder, new or written before, by its real place", async () => {
		expect(await folder.holds(join(plans, "plan-the-chapter-quiet-fox.md"))).toBe(true);
		expect(await folder.holds(join(plans, "written-before.md"))).toBe(true);
		expect(await folder.holds(join(temp.path, "config-link", "plans", "new.md"))).toBe(true);
		expect(await folder.holds(join(plans, "sub", "..", "new.md"))).toBe(true);
	});

	it("holds no link (it could lead into the vault), no second name of a file, nothing deeper, nothing else", async () => {
		for (const path of [
			join(plans, "link.md"),
			join(plans, "hard.md"),
			join(plans, "sub", "new.md"),
			join(plans, "notes.txt"),
			join(plans, ".hidden.md"),
			join(config, "settings.md"),
			join(vault, "plans", "new.md"),
			"plans/new.md",
		])
			expect(await folder.holds(path)).toBe(false);
	});

	it("holds a plan file before the CLI has made the plans folder (its first plan makes it)", async () => {
		const fresh = join(temp.path, "fresh-config");
		mkdirSync(fresh);
		const before = new PlanFolder(fresh);
		expect(await before.holds(join(fresh, "plans", "first.md"))).toBe(true);
		expect(await before.holds(join(temp.path, "config-link", "plans", "first.md"))).toBe(false);
		expect(await before.holds(join(fresh, "plans", "sub", "first.md"))).toBe(false);
	});
});
