import { initializeOffers } from "../../../src/agent/engine/initialize-offers";

describe("initializeOffers", () => {
	it("reads the commands and models of the CLI's initialize answer (2.1.330's shape), skipping malformed ones", () => {
		expect(
			initializeOffers({
				commands: [
					{ name: "compact", description: "Clear the history but keep a summary", argumentHint: "" },
					{ description: "no name" },
					"not a record",
				],
				models: [
					{ value: "default", displayName: "Default (recommended)", description: "Opus 5.5" },
					{ value: "haiku" },
					{ displayName: "no value" },
				],
				pid: 42,
			}),
		).toEqual({
			kind: "offers",
			commands: [{ name: "compact", description: "Clear the history but keep a summary" }],
			models: [
				{ value: "default", label: "Default (recommended)", description: "Opus 5.5" },
				{ value: "haiku", label: "haiku", description: "" },
			],
		});
	});

	it("offers nothing when the answer lists neither", () => {
		expect(initializeOffers({ pid: 1 })).toBeUndefined();
	});
});
