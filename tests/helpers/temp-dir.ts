import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { realpathSync } from "node:fs";

/** A fresh folder under the system temp dir (real path), removed by the returned cleanup. */
export function makeTempDir(prefix: string): { path: string; remove: () => void } {
	const path = realpathSync(mkdtempSync(join(tmpdir(), `ccb-${prefix}-`)));
	return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
