import { createHmac, timingSafeEqual } from "node:crypto";
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { JournalRecord } from "./journal-records";

/**
 * Who wrote a record read back: this device (its seal holds), a version before seals (none, and dated before this
 * device began sealing), or someone or something else.
 */
export type RecordTrust = "device" | "older" | "unreadable";

const MAC = /^[0-9a-f]{64}$/;
const PURPOSE = "claude-code-bridge activity journal v1\0";

/**
 * Seals the records this device writes into one vault's journal: an HMAC-SHA256 of the record's JSON (without its
 * `mac`) under a key derived from the device's key (`device-key.ts`) and the vault's real path, so a record copied
 * from another vault's journal, or from another device, does not pass. A change record names its pre-images by
 * their content hash, so the seal binds them too: a blob swapped in the journal's folder no longer hashes to it.
 */
export class JournalSeal {
	private readonly key: Buffer;

	/**
	 * @param sealingSince when this device began sealing (its key was made): a record without a seal dated after it
	 * was not written by this device's current version, so it is unreadable rather than older.
	 */
	constructor(
		deviceKey: Uint8Array,
		vaultRoot: string,
		private readonly sealingSince: number,
	) {
		this.key = createHmac("sha256", deviceKey).update(PURPOSE).update(realOrSelf(vaultRoot)).digest();
	}

	/** The record with its `mac`. */
	seal<Record extends JournalRecord>(record: Record): Record {
		const { mac: _ignored, ...rest } = record;
		return { ...rest, mac: this.macOf(JSON.stringify(rest)) } as Record;
	}

	/**
	 * Seals a record made here, which has no `mac` yet, in place: sets its `mac` and returns its line, the JSON of the
	 * record as sealed (`JSON.stringify(record)` from now on), encoded once. `mac` is its last field, so the line is
	 * the record's JSON with the seal added before the closing brace: the same text, and the same seal, as `seal`.
	 */
	sealLine(record: JournalRecord): string {
		if (record.mac !== undefined) throw new Error("The record is sealed already");
		const text = JSON.stringify(record);
		const mac = this.macOf(text);
		record.mac = mac;
		return `${text.slice(0, -1)},"mac":"${mac}"}`;
	}

	/** Whether this device wrote the record as it reads now. */
	trust(record: JournalRecord): RecordTrust {
		const { mac, ...rest } = record;
		if (mac === undefined) return record.at < this.sealingSince ? "older" : "unreadable";
		if (typeof mac !== "string" || !MAC.test(mac)) return "unreadable";
		return timingSafeEqual(Buffer.from(mac, "hex"), Buffer.from(this.macOf(JSON.stringify(rest)), "hex"))
			? "device"
			: "unreadable";
	}

	private macOf(text: string): string {
		return createHmac("sha256", this.key).update(text).digest("hex");
	}
}

/** Without a seal (no device key could be had), a record with a `mac` cannot be told from a forged one. */
export function trustWithoutSeal(record: JournalRecord): RecordTrust {
	return record.mac === undefined ? "older" : "unreadable";
}

function realOrSelf(path: string): string {
	try {
		return realpathSync.native(path);
	} catch {
		return resolve(path);
	}
}
