import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Installs something into `target` at most once, even with several processes asking at the same time
 * (two `npm test` runs, or Jest workers): one process installs while holding `<target>.lock`, the others
 * wait for it and then find the result. The install goes into a staging folder that is renamed onto
 * `target` only once it is complete, so a killed install never leaves a half-installed `target`.
 *
 * @param {object} options
 * @param {string} options.target the folder the installed thing lives in
 * @param {(folder: string) => Promise<void> | void} options.install fills an empty folder
 * @param {(folder: string) => string | undefined} options.locate the installed path inside a folder, if it works
 * @param {(holderPid: number | undefined) => void} [options.onWait] called once if another process holds the lock
 * @param {number} [options.waitTimeoutMs] how long to wait for another process's install
 * @returns {Promise<string>} what `locate(target)` found
 */
export async function installOnce({ target, install, locate, onWait, waitTimeoutMs = 15 * 60_000 }) {
	const existing = locate(target);
	if (existing) return existing;
	mkdirSync(path.dirname(target), { recursive: true });
	const release = await acquireLock(`${target}.lock`, { onWait, waitTimeoutMs });
	try {
		const installedMeanwhile = locate(target);
		if (installedMeanwhile) return installedMeanwhile;
		const staging = `${target}.staging-${process.pid}`;
		rmSync(staging, { recursive: true, force: true });
		mkdirSync(staging, { recursive: true });
		try {
			await install(staging);
			if (!locate(staging)) throw new Error("the install finished, but what it installed does not work");
			replaceFolder(staging, target);
		} finally {
			rmSync(staging, { recursive: true, force: true });
		}
		const installed = locate(target);
		if (!installed) throw new Error(`${target} does not work after it was moved into place`);
		return installed;
	} finally {
		release();
	}
}

function replaceFolder(source, target) {
	const old = `${target}.old-${process.pid}`;
	if (existsSync(target)) renameSync(target, old);
	renameSync(source, target);
	rmSync(old, { recursive: true, force: true });
}

/**
 * Takes the lock file (created complete, holding our pid, by hard-linking a private file to its name,
 * which fails if it exists). A lock whose pid is dead is stale and is removed.
 */
async function acquireLock(lockPath, { onWait, waitTimeoutMs }) {
	const mine = `${lockPath}.${process.pid}`;
	writeFileSync(mine, String(process.pid));
	const deadline = Date.now() + waitTimeoutMs;
	let waited = false;
	try {
		for (;;) {
			try {
				linkSync(mine, lockPath);
				return () => releaseLock(lockPath);
			} catch (error) {
				if (error.code !== "EEXIST") throw error;
			}
			const holder = readPid(lockPath);
			if (holder !== undefined && !isAlive(holder)) {
				removeStaleLock(lockPath, holder);
				continue;
			}
			if (!waited) onWait?.(holder);
			waited = true;
			if (Date.now() > deadline) {
				throw new Error(
					`gave up after ${Math.round(waitTimeoutMs / 1000)} s waiting for process ${String(holder)}, which holds ${lockPath}`,
				);
			}
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	} finally {
		rmSync(mine, { force: true });
	}
}

function releaseLock(lockPath) {
	if (readPid(lockPath) === process.pid) rmSync(lockPath, { force: true });
}

/**
 * Moves the stale lock aside before deleting it, so that of two processes that both saw it stale only one
 * removes it; if what was moved turns out to be a newer, live lock, it is put back.
 */
function removeStaleLock(lockPath, deadPid) {
	const aside = `${lockPath}.stale-${process.pid}`;
	try {
		renameSync(lockPath, aside);
	} catch (error) {
		if (error.code === "ENOENT") return;
		throw error;
	}
	if (readPid(aside) !== deadPid) {
		try {
			linkSync(aside, lockPath);
		} catch (error) {
			if (error.code !== "EEXIST") throw error;
		}
	}
	unlinkSync(aside);
}

function readPid(file) {
	try {
		const pid = Number.parseInt(readFileSync(file, "utf8"), 10);
		return Number.isInteger(pid) && pid > 0 ? pid : undefined;
	} catch {
		return undefined;
	}
}

function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === "EPERM";
	}
}
