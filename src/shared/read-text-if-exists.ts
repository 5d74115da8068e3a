import { readFile } from "node:fs/promises";

/** The file's UTF-8 text, or undefined when there is no file (a new note). Other failures are thrown. */
export async function readTextIfExists(absolutePath: string): Promise<string | undefined> {
	try {
		return await readFile(absolutePath, "utf8");
	} catch (error) {
		if (
			typeof error === "object" &&
			error !== null &&
			"code" in error &&
			(error.code === "ENOENT" || error.code === "ENOTDIR")
		)
			return undefined;
		throw error;
	}
}
