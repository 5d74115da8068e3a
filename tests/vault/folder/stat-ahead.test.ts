import { lstatSync, mkdirSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { StatAhead } from "../../../src/vault/folder/stat-ahead";
import type { Stamp } from "../../../src/vault/folder/stamp";
import { makeTempDir } from "../../helpers/temp-dir";
import { waitUntil } from "../../helpers/wait-until";

const temps: { remove: () => void }[] = [];
afterAll(() => temps.forEach((temp) => temp.remove()));

function stampOf(path: string): Stamp {
	const stats = lstatSync(path);
	return { mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, size: stats.size, ino: stats.ino };
}

describe("StatAhead", () => {
	it("gives every path one call: the worker's stamp of a file, none where there is no file", async () => {
		const temp = makeTempDir("stat-ahead");
		temps.push(temp);
		const root = temp.path;
		const paths: string[] = [];
		for (let at = 0; at < 1200; at++) {
			const path = `f${at % 7}/note ${at}.md`;
			mkdirSync(join(root, `f${at % 7}`), { recursive: true });
			writeFileSync(join(root, path), "x".repeat(at % 50));
			paths.push(path);
		}
		// A folder, and a path with nothing there.
		paths.push("f1", "gone.md");
		const ahead = new StatAhead(paths, `${root}${sep}`);
		await waitUntil(() => ahead.done === paths.length, "the worker done");
		const calls = paths.map(() => [] as (Stamp | undefined)[]);
		ahead.check((index, stamp) => calls[index]?.push(stamp));
		expect(calls.every((call) => call.length === 1)).toBe(true);
		expect(calls.slice(0, 1200).map((call) => call[0])).toEqual(
			paths.slice(0, 1200).map((path) => stampOf(join(root, path))),
		);
		expect(calls.slice(1200).map((call) => call[0])).toEqual([undefined, undefined]);
	});

	it("leaves the paths it has not statted to the checker", () => {
		const temp = makeTempDir("stat-ahead-checker");
		temps.push(temp);
		const paths = Array.from({ length: 2000 }, (_, at) => `note ${at}.md`);
		for (const path of paths) writeFileSync(join(temp.path, path), path);
		const ahead = new StatAhead(paths, `${temp.path}${sep}`);
		let own = 0;
		const stamps = new Map<number, Stamp>();
		ahead.check((index, stamp) => {
			if (stamp) stamps.set(index, stamp);
			else own++;
		});
		// However the two threads shared the list, every path had its call, and the worker's stamps are the files'.
		expect(own + stamps.size).toBe(paths.length);
		for (const [index, stamp] of stamps) expect(stamp).toEqual(stampOf(join(temp.path, paths[index] ?? "")));
	});
});
