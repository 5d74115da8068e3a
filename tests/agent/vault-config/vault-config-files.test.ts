import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	CONFIG_FILE_LIMIT_BYTES,
	CONFIG_FOLDER_LIMIT,
	VaultConfigFiles,
} from "../../../src/agent/vault-config/vault-config-files";
import { makeTempDir } from "../../helpers/temp-dir";

describe("VaultConfigFiles (the vault's Claude Code files, read as untrusted input)", () => {
	let root: { path: string; remove: () => void };
	let vault: string;
	beforeEach(() => {
		root = makeTempDir("config-files");
		vault = join(root.path, "Vault");
		mkdirSync(join(vault, ".claude"), { recursive: true });
	});
	afterEach(() => root?.remove());

	it("reads a file in the vault, and says when it is absent", async () => {
		writeFileSync(join(vault, ".claude", "settings.json"), "{}");
		const files = new VaultConfigFiles(vault);
		expect(await files.read(".claude/settings.json")).toEqual({ kind: "text", text: "{}" });
		expect(await files.read(".mcp.json")).toEqual({ kind: "missing" });
		expect(await files.read("nothing/here/CLAUDE.md")).toEqual({ kind: "missing" });
	});

	it("never follows a link out of the vault, and follows one that stays inside", async () => {
		writeFileSync(join(root.path, "secret.txt"), "outside");
		symlinkSync(join(root.path, "secret.txt"), join(vault, "CLAUDE.md"));
		writeFileSync(join(vault, "notes.md"), "inside");
		symlinkSync(join(vault, "notes.md"), join(vault, "CLAUDE.local.md"));
		symlinkSync(join(root.path, "nowhere"), join(vault, ".mcp.json"));
		const files = new VaultConfigFiles(vault);
		expect(await files.read("CLAUDE.md")).toEqual({
			kind: "unreadable",
			problem: `leads outside the vault, to ${join(root.path, "secret.txt")}`,
		});
		expect(await files.read("CLAUDE.local.md")).toEqual({ kind: "text", text: "inside" });
		expect(await files.read(".mcp.json")).toEqual({ kind: "unreadable", problem: "is a link to nothing" });
	});

	it("a vault opened through a link is still that vault", async () => {
		writeFileSync(join(vault, "CLAUDE.md"), "hello");
		symlinkSync(vault, join(root.path, "Linked"));
		expect(await new VaultConfigFiles(join(root.path, "Linked")).read("CLAUDE.md")).toEqual({
			kind: "text",
			text: "hello",
		});
	});

	it("describes a file too large or a folder where a file belongs, instead of reading it", async () => {
		writeFileSync(join(vault, "CLAUDE.md"), "x".repeat(CONFIG_FILE_LIMIT_BYTES + 1));
		mkdirSync(join(vault, ".mcp.json"));
		const files = new VaultConfigFiles(vault);
		expect(await files.read("CLAUDE.md")).toEqual({ kind: "unreadable", problem: "is larger than 256 KB" });
		expect(await files.read(".mcp.json")).toEqual({ kind: "unreadable", problem: "is not a file" });
	});

	it("lists a folder sorted and bounded, and a folder leading out of the vault not at all", async () => {
		const commands = join(vault, ".claude", "commands");
		mkdirSync(commands);
		for (let index = 0; index < CONFIG_FOLDER_LIMIT + 5; index += 1)
			writeFileSync(join(commands, `c${String(index).padStart(3, "0")}.md`), "");
		mkdirSync(join(root.path, "agents"));
		symlinkSync(join(root.path, "agents"), join(vault, ".claude", "agents"));
		const files = new VaultConfigFiles(vault);
		const listing = await files.list(".claude/commands");
		expect(listing).toMatchObject({ kind: "folder", truncated: true });
		expect("names" in listing && listing.names.length).toBe(CONFIG_FOLDER_LIMIT);
		expect("names" in listing && listing.names[0]).toBe("c000.md");
		expect(await files.list(".claude/agents")).toEqual({
			kind: "unreadable",
			problem: `leads outside the vault, to ${join(root.path, "agents")}`,
		});
		expect(await files.list(".claude/skills")).toEqual({ kind: "missing" });
	});
});
