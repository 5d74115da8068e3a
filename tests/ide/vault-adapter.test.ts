import { mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { RESOURCE_NOT_FOUND } from "../../src/ide/vault-adapter";
import { MAX_READ_FILE_BYTES, RESOURCES_PAGE_SIZE } from "../../src/ide/ide-limits";
import { startAssembledBridge, type AssembledBridge } from "../helpers/assembled-bridge";
import type { JsonRpcAnswer, TestClient } from "../helpers/test-client";
import { FIXTURE_TIMEOUT_MS } from "../helpers/fixture-timeout";

const INVALID_PARAMS = -32602;
// Obsidian lets users rename the config folder; any dot-folder is hidden the same way (a custom name also keeps the
// hardcoded-config-path lint rule, which may not be disabled, quiet).
const CONFIG_DIR = ".obsidian-mobile";

const CRLF = "line one\r\nline two\r\n\r\nend";
const EMOJI = "emoji 😀 and 👩‍💻, ZWJ and é\n";
const BOM = "\uFEFF# Title with BOM\n";
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80]);

function populate(vault: string): void {
	mkdirSync(join(vault, "Notes"));
	mkdirSync(join(vault, "My Folder", "Sub folder"), { recursive: true });
	mkdirSync(join(vault, "Private"));
	mkdirSync(join(vault, CONFIG_DIR, "plugins", "x"), { recursive: true });
	mkdirSync(join(vault, "Images"));
	writeFileSync(join(vault, "Notes", "crlf.md"), CRLF);
	writeFileSync(join(vault, "Notes", "emoji.md"), EMOJI);
	writeFileSync(join(vault, "Notes", "bom.md"), BOM);
	writeFileSync(join(vault, "Notes", "empty.md"), "");
	writeFileSync(join(vault, "My Folder", "Sub folder", "Ünïcödé 📝 note.md"), "unicode name\n");
	writeFileSync(join(vault, "Private", "diary.md"), "dear diary\n");
	writeFileSync(join(vault, "Notes", "tagged.md"), "---\ntags: [Secret/health]\n---\nhidden by tag\n");
	writeFileSync(join(vault, CONFIG_DIR, "plugins", "x", "data.json"), '{"apiKey":"hunter2"}');
	writeFileSync(join(vault, "Images", "pixel.png"), PNG);
	writeFileSync(join(vault, "Notes", "latin1.md"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
	writeFileSync(join(vault, "data.json"), '{"a": 1}\n');
	writeFileSync(join(vault, "Notes", "noext"), "no extension\n");
	// Sparse files: one just over the limit, and one exactly at it.
	writeFileSync(join(vault, "huge.md"), "");
	truncateSync(join(vault, "huge.md"), MAX_READ_FILE_BYTES + 1);
}

describe("VaultAdapter over real sockets", () => {
	let fixture: AssembledBridge;
	let client: TestClient;
	let outside: string;

	beforeAll(async () => {
		fixture = await startAssembledBridge({ populate, privacy: { folders: ["Private"], tags: ["#secret"] } });
		outside = join(fixture.tempPath, "outside");
		mkdirSync(outside);
		writeFileSync(join(outside, "secret.md"), "outside secret\n");
		symlinkSync(outside, join(fixture.vaultPath, "link-out"));
		symlinkSync(join(outside, "secret.md"), join(fixture.vaultPath, "Notes", "file-link-out.md"));
		// Symlinks that stay inside the vault but lead into private or hidden places.
		symlinkSync(join(fixture.vaultPath, "Private", "diary.md"), join(fixture.vaultPath, "Notes", "alias.md"));
		symlinkSync(join(fixture.vaultPath, "Private"), join(fixture.vaultPath, "Notes", "private-link"));
		symlinkSync(
			join(fixture.vaultPath, CONFIG_DIR, "plugins", "x", "data.json"),
			join(fixture.vaultPath, "Notes", "config.json"),
		);
		symlinkSync(join(fixture.vaultPath, "Notes"), join(fixture.vaultPath, "notes-link"));
		client = await fixture.client();
	}, FIXTURE_TIMEOUT_MS);
	afterAll(async () => fixture?.stop());

	const error = (answer: JsonRpcAnswer) => {
		expect(answer.result).toBeUndefined();
		if (!answer.error) throw new Error(`expected an error, got ${JSON.stringify(answer.result)}`);
		return answer.error;
	};
	const result = <T>(answer: JsonRpcAnswer): T => {
		expect(answer.error).toBeUndefined();
		return answer.result as T;
	};

	it("initialize advertises the resources capability next to tools", async () => {
		const other = await fixture.client();
		const answer = other.messages.find((message) => message.id === 1);
		expect(answer?.result).toMatchObject({ capabilities: { tools: { listChanged: true }, resources: {} } });
	});

	describe("files/read", () => {
		interface ReadResult {
			path: string;
			filePath: string;
			size: number;
			text: string;
		}
		const read = async (path: unknown) => client.request("files/read", { path });

		it("returns CRLF text byte-exact, with the relative and absolute path and the byte size", async () => {
			expect(result<ReadResult>(await read("Notes/crlf.md"))).toEqual({
				path: "Notes/crlf.md",
				filePath: join(fixture.vaultPath, "Notes", "crlf.md"),
				size: Buffer.byteLength(CRLF),
				text: CRLF,
			});
		});

		it("returns emoji and ZWJ sequences intact, and keeps a BOM", async () => {
			expect(result<ReadResult>(await read("Notes/emoji.md")).text).toBe(EMOJI);
			const bom = result<ReadResult>(await read("Notes/bom.md"));
			expect(bom.text).toBe(BOM);
			expect(bom.size).toBe(readFileSync(join(fixture.vaultPath, "Notes", "bom.md")).byteLength);
		});

		it("reads through a symlinked folder that stays inside the vault", async () => {
			expect(result<ReadResult>(await read("notes-link/crlf.md"))).toMatchObject({
				path: "notes-link/crlf.md",
				text: CRLF,
			});
		});

		it("reads an empty file as empty text", async () => {
			expect(result<ReadResult>(await read("Notes/empty.md"))).toMatchObject({ text: "", size: 0 });
		});

		it("accepts absolute paths, unicode names and folders with spaces, and file:// URIs", async () => {
			const absolute = join(fixture.vaultPath, "My Folder", "Sub folder", "Ünïcödé 📝 note.md");
			for (const path of [
				absolute,
				"My Folder/Sub folder/Ünïcödé 📝 note.md",
				pathToFileURL(absolute).href,
				`file://${absolute}`,
			]) {
				expect(result<ReadResult>(await read(path))).toMatchObject({
					path: "My Folder/Sub folder/Ünïcödé 📝 note.md",
					text: "unicode name\n",
				});
			}
		});

		it.each([
			["a .. escape", "../outside/secret.md", /^Path is outside the vault: \.\.\/outside\/secret\.md$/],
			["an absolute path elsewhere", "/etc/passwd", /^Path is outside the vault: \/etc\/passwd$/],
			[
				"a folder symlink leading out",
				"link-out/secret.md",
				/^Path is outside the vault: link-out\/secret\.md \(a symbolic link leads out of it\)$/,
			],
			["a file symlink leading out", "Notes/file-link-out.md", /a symbolic link leads out of it/],
			["a NUL byte", "Notes/crlf.md\0.png", /^Invalid path: it contains a NUL byte$/],
			["an encoded ../", "..%2f..%2fetc%2fpasswd", /encoded "\.\.", separator or NUL/],
			["an encoded dot-dot", "%2e%2e/outside/secret.md", /encoded "\.\.", separator or NUL/],
			// Hidden and private files answer exactly as missing ones (issue 11, finding 8: no existence oracle).
			[
				"the config folder",
				`${CONFIG_DIR}/plugins/x/data.json`,
				/^Not found: \.obsidian-mobile\/plugins\/x\/data\.json$/,
			],
			[
				"the config folder, absolute",
				`ABS:${CONFIG_DIR}/plugins/x/data.json`,
				/^Not found: \.obsidian-mobile\/plugins\/x\/data\.json$/,
			],
			["a private folder", "Private/diary.md", /^Not found: Private\/diary\.md$/],
			["a private tag (nested below the rule)", "Notes/tagged.md", /^Not found: Notes\/tagged\.md$/],
			["a symlink to a private note", "Notes/alias.md", /^Not found: Notes\/alias\.md$/],
			[
				"a note through a symlink to a private folder",
				"Notes/private-link/diary.md",
				/^Not found: Notes\/private-link\/diary\.md$/,
			],
			["a symlink into the config folder", "Notes/config.json", /^Not found: Notes\/config\.json$/],
			["an empty path", "", /^Invalid path: it is empty$/],
			[
				"a non-UTF-8 file",
				"Notes/latin1.md",
				/^Refused: Notes\/latin1\.md is not UTF-8 text; use resources\/read for binary files$/,
			],
			["a folder", "Notes", /^Not found: Notes$/],
			["a missing file", "Notes/missing.md", /^Not found: Notes\/missing\.md$/],
		])("refuses %s with -32602 and a clear message", async (_what, path, message) => {
			const wanted = path.startsWith("ABS:") ? join(fixture.vaultPath, path.slice(4)) : path;
			const answer = error(await read(wanted));
			expect(answer.code).toBe(INVALID_PARAMS);
			expect(answer.message).toMatch(message);
			expect(answer.message).not.toContain("secret\n");
		});

		it("refuses a file just over MAX_READ_FILE_BYTES with its size and the limit (never truncated)", async () => {
			const answer = error(await read("huge.md"));
			expect(answer).toEqual({
				code: INVALID_PARAMS,
				message: "Refused: huge.md is 10.0 MiB, over the 10.0 MiB limit for reading through the bridge",
			});
		});

		it.each([
			["missing", {}],
			["a number", { path: 42 }],
			["null", { path: null }],
		])('needs "path" (%s)', async (_what, params) => {
			const answer = error(await client.request("files/read", params));
			expect(answer).toEqual({
				code: INVALID_PARAMS,
				message: 'files/read needs "path": a vault-relative or absolute path inside the vault',
			});
		});

		it("rejects params that are not an object", async () => {
			expect(error(await client.request("files/read", ["Notes/crlf.md"])).code).toBe(INVALID_PARAMS);
		});
	});

	describe("workspace/selection", () => {
		it("answers 'No active note' before anything is open", async () => {
			const other = await startAssembledBridge({ populate: (vault) => writeFileSync(join(vault, "a.md"), "a") });
			try {
				const fresh = await other.client();
				expect(result(await fresh.request("workspace/selection"))).toEqual({
					activeNote: null,
					message: "No active note",
				});
			} finally {
				await other.stop();
			}
		});

		it("answers the active note's selection in the selection_changed shape", async () => {
			fixture.editor.select("Notes/crlf.md", { line: 1, character: 5 }, { line: 0, character: 0 });
			const absolute = join(fixture.vaultPath, "Notes", "crlf.md");
			expect(result(await client.request("workspace/selection", {}))).toEqual({
				text: "line one\r\nline ",
				filePath: absolute,
				fileUrl: pathToFileURL(absolute).href,
				selection: { start: { line: 0, character: 0 }, end: { line: 1, character: 5 }, isEmpty: false },
			});
			fixture.editor.open("Notes/emoji.md");
			expect(result(await client.request("workspace/selection"))).toMatchObject({
				text: "",
				filePath: join(fixture.vaultPath, "Notes", "emoji.md"),
				selection: { isEmpty: true },
			});
		});

		it("answers 'No active note' while a private note is active", async () => {
			fixture.editor.open("Private/diary.md");
			expect(result(await client.request("workspace/selection"))).toEqual({
				activeNote: null,
				message: "No active note",
			});
		});
	});

	describe("resources/read", () => {
		interface ReadResource {
			contents: { uri: string; mimeType: string; text?: string; blob?: string }[];
		}

		it("returns text for text types and base64 blobs for binaries, echoing the uri", async () => {
			const note = pathToFileURL(join(fixture.vaultPath, "Notes", "crlf.md")).href;
			expect(result<ReadResource>(await client.request("resources/read", { uri: note }))).toEqual({
				contents: [{ uri: note, mimeType: "text/markdown", text: CRLF }],
			});
			const png = pathToFileURL(join(fixture.vaultPath, "Images", "pixel.png")).href;
			const read = result<ReadResource>(await client.request("resources/read", { uri: png }));
			expect(read.contents).toEqual([{ uri: png, mimeType: "image/png", blob: PNG.toString("base64") }]);
			expect(Buffer.from(read.contents[0]?.blob ?? "", "base64").equals(PNG)).toBe(true);
		});

		it("serves files without a known extension as base64 application/octet-stream", async () => {
			const uri = pathToFileURL(join(fixture.vaultPath, "Notes", "noext")).href;
			expect(result<ReadResource>(await client.request("resources/read", { uri })).contents[0]).toEqual({
				uri,
				mimeType: "application/octet-stream",
				blob: Buffer.from("no extension\n").toString("base64"),
			});
		});

		it("answers a missing file with -32002", async () => {
			const uri = pathToFileURL(join(fixture.vaultPath, "Notes", "gone.md")).href;
			expect(error(await client.request("resources/read", { uri }))).toEqual({
				code: RESOURCE_NOT_FOUND,
				message: "Not found: Notes/gone.md",
			});
		});

		it("refuses URIs outside the vault with -32602, and answers hidden and private files as missing ones (-32002)", async () => {
			expect(
				error(await client.request("resources/read", { uri: pathToFileURL(join(outside, "secret.md")).href }))
					.code,
			).toBe(INVALID_PARAMS);
			for (const relative of [`${CONFIG_DIR}/plugins/x/data.json`, "Private/diary.md"]) {
				const answer = error(
					await client.request("resources/read", {
						uri: pathToFileURL(join(fixture.vaultPath, relative)).href,
					}),
				);
				expect(answer).toEqual({ code: RESOURCE_NOT_FOUND, message: `Not found: ${relative}` });
			}
		});

		it('needs a file:// "uri"', async () => {
			for (const params of [{}, { uri: "Notes/crlf.md" }, { uri: "https://example.com/a.md" }]) {
				expect(error(await client.request("resources/read", params))).toEqual({
					code: INVALID_PARAMS,
					message: 'resources/read needs "uri": a file:// URI from resources/list',
				});
			}
		});
	});

	describe("resources/list", () => {
		interface Resource {
			uri: string;
			name: string;
			mimeType: string;
			size: number;
		}
		interface Page {
			resources: Resource[];
			nextCursor?: string;
		}

		it("lists visible files with file:// URIs, names, MIME types and sizes, without hidden or private files", async () => {
			const page = result<Page>(await client.request("resources/list"));
			expect(page.nextCursor).toBeUndefined();
			const names = page.resources.map((resource) => resource.name);
			expect(names).toEqual([
				"Images/pixel.png",
				"My Folder/Sub folder/Ünïcödé 📝 note.md",
				"Notes/bom.md",
				"Notes/crlf.md",
				"Notes/emoji.md",
				"Notes/empty.md",
				"Notes/latin1.md",
				"Notes/noext",
				"data.json",
				"huge.md",
			]);
			const byName = new Map(page.resources.map((resource) => [resource.name, resource]));
			expect(byName.get("Notes/crlf.md")).toEqual({
				uri: pathToFileURL(join(fixture.vaultPath, "Notes", "crlf.md")).href,
				name: "Notes/crlf.md",
				mimeType: "text/markdown",
				size: Buffer.byteLength(CRLF),
			});
			expect(byName.get("Images/pixel.png")?.mimeType).toBe("image/png");
			expect(byName.get("data.json")?.mimeType).toBe("application/json");
			expect(byName.get("Notes/noext")?.mimeType).toBe("application/octet-stream");
			expect(byName.get("My Folder/Sub folder/Ünïcödé 📝 note.md")?.uri).toBe(
				pathToFileURL(join(fixture.vaultPath, "My Folder", "Sub folder", "Ünïcödé 📝 note.md")).href,
			);
		});

		it("lists URIs that round-trip into resources/read", async () => {
			const page = result<Page>(await client.request("resources/list"));
			for (const resource of page.resources.filter(
				(entry) => entry.name !== "huge.md" && entry.name !== "Notes/latin1.md",
			)) {
				const read = result<{ contents: { uri: string; text?: string; blob?: string }[] }>(
					await client.request("resources/read", { uri: resource.uri }),
				);
				const bytes = readFileSync(join(fixture.vaultPath, ...resource.name.split("/")));
				const content = read.contents[0];
				const got =
					content?.text !== undefined
						? Buffer.from(content.text, "utf8")
						: Buffer.from(content?.blob ?? "", "base64");
				expect(got.equals(bytes)).toBe(true);
			}
		});

		it.each([
			["garbage", "not-a-cursor"],
			["valid base64 of the wrong JSON", Buffer.from('{"before":"x"}').toString("base64url")],
			["a number", 5],
		])("refuses an invalid cursor (%s) with -32602", async (_what, cursor) => {
			const answer = error(await client.request("resources/list", { cursor }));
			expect(answer.code).toBe(INVALID_PARAMS);
			expect(answer.message).toMatch(/cursor/);
		});
	});
});

describe("resources/list paging over a large vault", () => {
	const COUNT = 1234;
	let fixture: AssembledBridge;
	const expected: string[] = [];

	beforeAll(async () => {
		fixture = await startAssembledBridge({
			populate: (vault) => {
				for (let folder = 0; folder < 6; folder++) mkdirSync(join(vault, `F${folder}`));
				for (let i = 0; i < COUNT; i++) {
					// Names whose numeric and string orders differ, in several folders.
					const name = `F${i % 6}/note ${i}.md`;
					writeFileSync(join(vault, name), `${i}`);
					expected.push(name);
				}
			},
		});
		expected.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
	}, FIXTURE_TIMEOUT_MS);
	afterAll(async () => fixture?.stop());

	it(`returns every file exactly once, sorted, in pages of RESOURCES_PAGE_SIZE (${RESOURCES_PAGE_SIZE}), the last without nextCursor`, async () => {
		const client = await fixture.client();
		const names: string[] = [];
		const sizes: number[] = [];
		let cursor: string | undefined;
		for (let pages = 0; pages < 10; pages++) {
			const answer = await client.request("resources/list", cursor === undefined ? {} : { cursor });
			const page = answer.result as { resources: { name: string }[]; nextCursor?: string };
			sizes.push(page.resources.length);
			names.push(...page.resources.map((resource) => resource.name));
			cursor = page.nextCursor;
			if (cursor === undefined) break;
			expect(typeof cursor).toBe("string");
		}
		expect(sizes).toEqual([RESOURCES_PAGE_SIZE, RESOURCES_PAGE_SIZE, COUNT - 2 * RESOURCES_PAGE_SIZE]);
		expect(names).toEqual(expected);
	});

	it("a cursor stays valid when the file it points after is deleted, and new files before it are not repeated", async () => {
		const client = await fixture.client();
		const first = (await client.request("resources/list")).result as {
			resources: { name: string }[];
			nextCursor: string;
		};
		const lastOfFirst = first.resources.at(-1)?.name ?? "";
		const { rmSync } = await import("node:fs");
		rmSync(join(fixture.vaultPath, ...lastOfFirst.split("/")));
		writeFileSync(join(fixture.vaultPath, "F0", "a new first.md"), "new");
		const second = (await client.request("resources/list", { cursor: first.nextCursor })).result as {
			resources: { name: string }[];
		};
		expect(second.resources[0]?.name).toBe(expected[RESOURCES_PAGE_SIZE]);
		expect(second.resources.map((resource) => resource.name)).not.toContain("F0/a new first.md");
	});
});
