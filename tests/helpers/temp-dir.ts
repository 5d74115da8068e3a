import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { realpathSync } from "node:fs";

/** A fresh folder under the system temp dir (real path), removed by the returned cleanup. */
export function makeTempDir(prefix: string): { path: string; remove: () => void } {
	const path = realpathSync(mkdtempSync(join(tmpdir(), `ccb-${prefix}-`)));
	return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A temp folder holding these files (vault paths → text), with `write` to add or change one; removed by `remove`. */
export function makeNoteFolder(
	prefix: string,
	files: Record<string, string>,
): { root: string; write: (path: string, text: string) => void; remove: () => void } {
	const temp = makeTempDir(prefix);
	const write = (path: string, text: string): void => {
		mkdirSync(join(temp.path, path, ".."), { recursive: true });
		writeFileSync(join(temp.path, path), text);
	};
	for (const [path, text] of Object.entries(files)) write(path, text);
	return { root: temp.path, write, remove: temp.remove };
}
