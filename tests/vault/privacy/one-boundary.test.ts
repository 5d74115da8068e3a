import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

// Issue 14: privacy is decided and applied in one place. Every feature reaches notes through the vault's
// `VaultPrivacy`, which the assembly builds once per vault; nothing else builds a privacy filter or a view of the
// notes that hides private ones.

const ROOT = join(__dirname, "..", "..", "..");

function sourceFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith(".ts") ? [path] : [];
	});
}

/** What builds a privacy decision or a privacy-wrapped port, and the only file allowed to build each. */
const BUILT_ONLY_IN: Record<string, string> = {
	PrivacyFilter: "src/vault/privacy/vault-privacy.ts",
	VisibleVault: "src/vault/privacy/vault-privacy.ts",
	PrivateFiles: "src/vault/privacy/vault-privacy.ts",
	PrivateDiagnosticsNotes: "src/vault/privacy/vault-privacy.ts",
	PrivateWorkspace: "src/ide/workspace/private-workspace.ts",
	VaultPrivacy: "src/assembly/",
};

describe("one privacy boundary", () => {
	const files = sourceFiles(join(ROOT, "src")).map((file) => ({
		path: relative(ROOT, file).split("\\").join("/"),
		text: readFileSync(file, "utf8"),
	}));

	it.each(Object.entries(BUILT_ONLY_IN))("%s is built only in %s", (name, allowed) => {
		const builders = files.filter((file) => new RegExp(`new ${name}\\b`).test(file.text)).map((file) => file.path);
		expect(builders.length).toBeGreaterThan(0);
		expect(builders.filter((path) => !path.startsWith(allowed))).toEqual([]);
	});

	it("no feature takes a raw isPrivate callback: the notifier and the review manager take the boundary", () => {
		const rawCallbacks = files.filter(
			(file) =>
				/^\s*isPrivate\??: \(/m.test(file.text) &&
				(file.path.startsWith("src/ide/") || file.path.startsWith("src/vault-tools/")),
		);
		expect(rawCallbacks.map((file) => file.path)).toEqual([]);
	});
});
