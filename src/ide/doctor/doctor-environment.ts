import { promises as fs } from "node:fs";
import { isProcessAlive, type ProcessAliveCheck } from "../../server/lock-file";
import { probeConnection, type ConnectionProbe } from "./probe-connection";

/** The file system calls the doctor makes itself (lock files are read by `readLockFile`); tests may swap one for a failing stand-in. */
export interface DoctorFileSystem {
	readdir(path: string): Promise<string[]>;
	realpath(path: string): Promise<string>;
}

/** Everything the doctor reads from the machine, injectable for tests. */
export interface DoctorEnvironment {
	fs: DoctorFileSystem;
	isProcessAlive: ProcessAliveCheck;
	now: () => Date;
	platform: NodeJS.Platform;
	probe: ConnectionProbe;
	/** `$CLAUDE_CONFIG_DIR`: Claude Code also scans its `ide` folder, where some editors write their lock files. */
	claudeConfigDir: string | undefined;
}

export const NODE_FILE_SYSTEM: DoctorFileSystem = {
	readdir: (path) => fs.readdir(path),
	realpath: (path) => fs.realpath(path),
};

export function defaultDoctorEnvironment(): DoctorEnvironment {
	const configured = process.env.CLAUDE_CONFIG_DIR;
	return {
		fs: NODE_FILE_SYSTEM,
		isProcessAlive,
		now: () => new Date(),
		platform: process.platform,
		probe: probeConnection,
		claudeConfigDir: configured && configured.trim() !== "" ? configured : undefined,
	};
}
