import { randomBytes } from "node:crypto";
import { JournalSeal } from "../../src/journal/journal-seal";

/** A seal with a key of its own, as a device's (tests: records it seals are this device's), sealing since `since`. */
export function testSeal(vaultRoot = "/vault", since = Date.now()): JournalSeal {
	return new JournalSeal(randomBytes(32), vaultRoot, since);
}
