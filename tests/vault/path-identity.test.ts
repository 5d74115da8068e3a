import fc from "fast-check";
import {
	FOLDED_PATH_KEY,
	foldCase,
	normaliseUnicode,
	PathIdentity,
	type PathFileSystem,
} from "../../src/vault/path-identity";
import { VaultPaths } from "../../src/vault/vault-paths";
import { APFS, CASE_SENSITIVE, VolumeDouble } from "../security/volume-double";

/** A file-system double that counts what is asked of it. */
function counting(inner: PathFileSystem): { fileSystem: PathFileSystem; calls: string[] } {
	const calls: string[] = [];
	const fileSystem: PathFileSystem = {
		realpath: (path) => (calls.push(`realpath ${path}`), inner.realpath(path)),
		isSymbolicLink: (path) => (calls.push(`lstat ${path}`), inner.isSymbolicLink(path)),
		fileId: (path) => (calls.push(`stat ${path}`), inner.fileId(path)),
		names: (folder) => (calls.push(`readdir ${folder}`), inner.names(folder)),
		linkCount: (path) => (calls.push(`nlink ${path}`), inner.linkCount(path)),
	};
	return { fileSystem, calls };
}

describe("PathIdentity", () => {
	it("detects the volume once per vault; every key after that is string work, no system call", () => {
		const { fileSystem, calls } = counting(new VolumeDouble(APFS, ["/v/Vault/Secret/a.md"]));
		const identity = new PathIdentity("/v/Vault", fileSystem);
		expect(identity.key("SECRET/A.md")).toBe("secret/a.md");
		const detection = calls.length;
		expect(detection).toBeGreaterThan(0);
		for (const path of ["Secret/a.md", "Cafe\u0301/b.md", "x.md"]) identity.key(path);
		expect(calls).toHaveLength(detection);
	});

	it("keys in NFC, folding case only on a case-insensitive volume", () => {
		const sensitive = new PathIdentity("/v/Vault", new VolumeDouble(CASE_SENSITIVE, ["/v/Vault/a.md"]));
		expect(sensitive.key("Cafe\u0301/A.md")).toBe("Caf\u00e9/A.md");
		const insensitive = new PathIdentity("/v/Vault", new VolumeDouble(APFS, ["/v/Vault/a.md"]));
		expect(insensitive.key("Cafe\u0301/A.md")).toBe("caf\u00e9/a.md");
		expect(FOLDED_PATH_KEY.key("CAFE\u0301")).toBe(foldCase("caf\u00e9"));
	});

	it("normaliseUnicode and foldCase answer as full normalisation does, ASCII shortcut or not", () => {
		const unit = fc
			.oneof(
				fc.integer({ min: 0, max: 0x7f }),
				fc.constantFrom(0x301, 0x308, 0xe9, 0x130, 0x212b, 0x1e9e, 0xc5, 0x3a3),
			)
			.map((code) => String.fromCharCode(code));
		fc.assert(
			fc.property(
				fc.array(unit, { maxLength: 12 }).map((units) => units.join("")),
				(text) => {
					expect(normaliseUnicode(text)).toBe(text.normalize("NFC"));
					expect(foldCase(text)).toBe(text.normalize("NFC").toLowerCase().normalize("NFC"));
				},
			),
			{ numRuns: 2000 },
		);
	});
});

describe("VaultPaths with the identity", () => {
	it("resolving an existing note costs one realpath, as before the identity", () => {
		const { fileSystem, calls } = counting(new VolumeDouble(APFS, ["/v/Vault/Notes/a.md"]));
		const paths = new VaultPaths("/v/Vault", fileSystem);
		paths.identity.key("warm-up");
		calls.length = 0;
		expect(paths.resolve("NOTES/a.md")).toEqual({
			relative: "NOTES/a.md",
			absolute: "/v/Vault/NOTES/a.md",
			realRelative: "Notes/a.md",
		});
		expect(calls).toEqual(["realpath /v/Vault/NOTES/a.md"]);
	});
});
