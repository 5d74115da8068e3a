import type { VaultPrivacy } from "../../src/vault/privacy/vault-privacy";

/** A privacy boundary for the notifier's tests: the decision by absolute path alone. */
export function privacyByPath(isPrivate: (absolutePath: string) => boolean): Pick<VaultPrivacy, "hidesPath"> {
	return { hidesPath: (path) => isPrivate(typeof path === "string" ? path : path.absolute) };
}
