import { setFlagsFromString } from "node:v8";

/** The V8 heap flags this process set with `setHeapFlags`, in order. */
const flagsSet: string[] = [];

/** Sets V8 heap flags for the whole process (`--name=value`), kept so that `restoreHeapFlags` can set them again. */
export function setHeapFlags(...flags: string[]): void {
	for (const flag of flags) {
		setFlagsFromString(flag);
		flagsSet.push(flag);
	}
}

/**
 * Sets the flags of `setHeapFlags` again: call it once a worker thread runs. V8 reads its flags, which are the
 * process's, to configure each new isolate's heap, and raises `--semi-space-growth-factor` to at least 2 while doing
 * so: after a worker started, this thread's young generation grew again (a 10k-note pass took it from 2 to 32 MB).
 */
export function restoreHeapFlags(): void {
	for (const flag of flagsSet) setFlagsFromString(flag);
}
