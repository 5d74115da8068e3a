/** What tells one version of a file from another: modification and change times, size and inode. */
export interface Stamp {
	mtimeMs: number;
	ctimeMs: number;
	size: number;
	ino: number;
}
