import type { DoctorEnvironment, FileFacts } from "../../../src/ide/doctor/doctor-environment";

/** A machine in memory for the doctor: files (text and mode), folders (mode), symbolic links, live pids. */
export class DoctorMachine {
	readonly files = new Map<string, { text: string; mode: number }>();
	readonly folders = new Map<string, number>();
	readonly links = new Map<string, string>();
	readonly alive = new Set<number>();
	platform: NodeJS.Platform = "linux";

	environment(): DoctorEnvironment {
		const facts = (path: string, follow: boolean): Promise<FileFacts> => {
			const link = this.links.get(path);
			if (link !== undefined && !follow) return Promise.resolve({ mode: 0o777, isFile: () => false, isDirectory: () => false, isSymbolicLink: () => true });
			const real = link ?? path;
			const file = this.files.get(real);
			if (file) return Promise.resolve({ mode: file.mode, isFile: () => true, isDirectory: () => false, isSymbolicLink: () => false });
			const folder = this.folders.get(real);
			if (folder !== undefined) return Promise.resolve({ mode: folder, isFile: () => false, isDirectory: () => true, isSymbolicLink: () => false });
			return Promise.reject(new Error(`ENOENT: no such file or directory, stat '${path}'`));
		};
		return {
			fs: {
				lstat: (path) => facts(path, false),
				stat: (path) => facts(path, true),
				readFile: (path) => {
					const file = this.files.get(this.links.get(path) ?? path);
					return file ? Promise.resolve(file.text) : Promise.reject(new Error(`ENOENT: no such file or directory, open '${path}'`));
				},
				readdir: (path) => {
					const real = this.links.get(path) ?? path;
					if (!this.folders.has(real)) return Promise.reject(new Error(`ENOENT: no such file or directory, scandir '${path}'`));
					const names = [...this.files.keys()].filter((file) => file.startsWith(`${real}/`) && !file.slice(real.length + 1).includes("/")).map((file) => file.slice(real.length + 1));
					return Promise.resolve(names);
				},
				realpath: (path) => (this.folders.has(path) || this.files.has(path) ? Promise.resolve(path) : this.links.has(path) ? Promise.resolve(this.links.get(path) ?? path) : Promise.reject(new Error(`ENOENT: realpath '${path}'`))),
			},
			isProcessAlive: (pid) => this.alive.has(pid),
			now: () => new Date("2026-11-27T00:00:00Z"),
			platform: this.platform,
			probe: () => Promise.reject(new Error("no probe in this test")),
			claudeConfigDir: undefined,
		};
	}
}
