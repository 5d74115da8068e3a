/** Longer than any vault path a record of ours holds. */
const MAX_PATH = 1024;

export const OUTSIDE_THE_VAULT = "a path outside the vault";

/**
 * Why a path a journal record names is not a vault path of the form the journal writes (vault-relative, forward
 * slashes, no `.` or `..` part, no empty part, not absolute, no NUL or backslash); undefined when it is. Only the
 * form: where it leads (a linked folder) and whether it is private is for the vault to say.
 */
export function pathFormProblem(path: string): string | undefined {
	if (path === "" || path.length > MAX_PATH || path.includes("\0") || path.includes("\\")) return OUTSIDE_THE_VAULT;
	if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return OUTSIDE_THE_VAULT;
	for (const part of path.split("/")) if (part === "" || part === "." || part === "..") return OUTSIDE_THE_VAULT;
	return undefined;
}
