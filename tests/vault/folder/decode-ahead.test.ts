import { join, sep } from "node:path";
import { decodeBase64 } from "../../../src/shared/base64-bytes";
import { DECODED, DecodedAhead, NOT_BASE64, NOT_YET } from "../../../src/vault/folder/decode-ahead";
import { SavedFolderIndex, type SavedNote } from "../../../src/vault/folder/saved-folder-index";
import { StatAhead, type SavedStamps } from "../../../src/vault/folder/stat-ahead";
import { makeTempDir } from "../../helpers/temp-dir";
import { waitUntil } from "../../helpers/wait-until";

const temps: { remove: () => void }[] = [];
afterAll(() => temps.forEach((temp) => temp.remove()));

const started: StatAhead[] = [];
afterEach(() => started.splice(0).forEach((ahead) => ahead.dispose()));

function startWorker(stamps: SavedStamps, root: string): StatAhead {
	const ahead = new StatAhead(stamps, `${root}${sep}`);
	started.push(ahead);
	return ahead;
}

async function decodedBy(region: DecodedAhead): Promise<number> {
	await waitUntil(() => Atomics.load(region.state, 0) !== NOT_YET, "the worker's decoding");
	return Atomics.load(region.state, 0);
}

/** Shared bytes holding `text`: a region of them as the saved index's last lines would hold base64. */
function sharedBytes(text: string): Uint8Array {
	const bytes = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(text)));
	bytes.set(Buffer.from(text, "latin1"));
	return bytes;
}

describe("DecodedAhead (the stat-ahead worker decodes a saved index's base64 for the main thread)", () => {
	it("gives a later session the saved stamps and link targets the worker decoded, byte for byte as decoded here", async () => {
		const temp = makeTempDir("decode-ahead");
		temps.push(temp);
		const notes: SavedNote[] = [];
		for (let at = 0; at < 300; at++) {
			const path = `f${at % 5}/note ${String(at).padStart(3, "0")}.md`;
			const targets = [`f${(at + 1) % 5}/note ${String((at + 1) % 300).padStart(3, "0")}.md`, "elsewhere.pdf"];
			notes.push({
				path,
				stamp: { mtimeMs: at, ctimeMs: at, size: at, ino: at },
				linkpaths: [],
				tags: [],
				targets,
			});
		}
		notes.sort((a, b) => (a.path < b.path ? -1 : 1));
		const saved = new SavedFolderIndex({ file: join(temp.path, "index.json"), vault: temp.path, version: "test" });
		saved.save(notes, { count: 301, sum: 1, xor: 1 });
		const loaded = saved.load();
		const stamps = loaded?.savedStamps();
		const numbers = stamps?.ahead?.numbers;
		const links = stamps?.ahead?.links;
		if (!loaded || !stamps || !numbers || !links) throw new Error("no saved stamps and targets to decode");
		expect(numbers.take()).toBeUndefined();
		startWorker(stamps, temp.path);
		expect(await decodedBy(numbers)).toBe(DECODED);
		expect(await decodedBy(links)).toBe(DECODED);
		for (const region of [numbers, links])
			expect(Buffer.from(region.take() ?? [])).toEqual(
				Buffer.from(decodeBase64(stamps.bytes, region.start, region.end) ?? [0]),
			);
		// What the later session then reads of them: each note's stamp and where its links led.
		const rows: { path: string; size: number }[] = [];
		loaded.forEach((path, stamp) => rows.push({ path, size: stamp.size }));
		expect(rows).toEqual(notes.map((note) => ({ path: note.path, size: note.stamp.size })));
		expect(loaded.targets(0)).toEqual(notes[0]?.targets);
		expect(loaded.targets(299)).toEqual(notes[299]?.targets);
	});

	it.each([
		["plain", "QUJDRA=="],
		["no padding", "QUJD"],
		["padded by one", "QUI="],
		["empty", ""],
		["a byte outside the alphabet", "QU-D"],
		["padding inside", "QU==QUJD"],
		["three padding bytes", "Q==="],
		["a length not a multiple of 4", "QUJDR"],
		["a space", "QU D"],
		["URL-safe base64", "QU_D"],
	])("decodes only what the main thread's decoder takes, %s", async (_name, base64) => {
		const temp = makeTempDir("decode-ahead-strict");
		temps.push(temp);
		const text = `["a.md"]\n"AAAA"\n${base64}\n`;
		const bytes = sharedBytes(text);
		const numbersStart = text.indexOf('"');
		const numbersEnd = text.indexOf("\n", numbersStart);
		const start = numbersEnd + 1;
		const region = DecodedAhead.of(bytes, start, start + base64.length);
		const expected = decodeBase64(bytes, start, start + base64.length);
		if (!region) {
			expect(expected).toBeUndefined();
			return;
		}
		startWorker(
			{
				bytes,
				paths: { start: 0, end: numbersStart - 1 },
				numbers: { start: numbersStart, end: numbersEnd },
				rows: 1,
				ahead: { links: region },
			},
			temp.path,
		);
		const state = await decodedBy(region);
		expect(state).toBe(expected ? DECODED : NOT_BASE64);
		expect(region.take() && Buffer.from(region.take() ?? [])).toEqual(expected && Buffer.from(expected));
	});
});
