/**
 * Why a target is missed and what would close it, from the profile (bench/profile-summary.ts). Printed under the
 * table only for rows that miss in the run at hand.
 */
export const MISSED_NOTES: Record<"ping" | "toolOverhead" | "throughput" | "read" | "selection" | "require" | "onload", string> = {
	ping: "not yet profiled",
	toolOverhead: "not yet profiled",
	throughput: "not yet profiled",
	read: "not yet profiled",
	selection: "not yet profiled",
	require: "not yet profiled",
	onload: "not yet profiled",
};
