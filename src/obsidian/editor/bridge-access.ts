import type { Notifier } from "../../ide/notifier";
import type { VaultPaths } from "../../vault/vault-paths";

/** The running bridge's parts, as seen by UI that outlives restarts of the bridge: undefined while it is off. */
export interface BridgeAccess {
	paths: () => VaultPaths | undefined;
	notifier: () => Notifier | undefined;
}
