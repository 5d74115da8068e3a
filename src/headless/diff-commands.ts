import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { PendingReviews } from "../review/pending-reviews";
import type { PendingReview } from "../review/edit-proposal";
import type { HeadlessCommand } from "./command-loop";

const USAGE = "diff list | diff accept [<tab_name>] [--text-file F] | diff reject [<tab_name> [<reason for Claude>…]]";

/** `diff list|accept|reject`: decide Claude's proposed edits without the app. */
export function diffCommand(reviews: PendingReviews): HeadlessCommand {
	return {
		usage: "diff list|accept|reject [<tab_name>] [<reason>…]",
		summary:
			"list pending edit reviews (JSON lines), or accept (--text-file F: with F's text) or reject one (the words after the name: the reason for Claude)",
		run: (args) => {
			const [action, ...rest] = args;
			switch (action) {
				case "list":
					return listReviews(reviews);
				case "accept":
					return accept(reviews, rest);
				case "reject":
					return reject(reviews, rest);
				default:
					throw new Error(`expected ${USAGE}`);
			}
		},
	};
}

function listReviews(reviews: PendingReviews): string {
	const pending = reviews.list();
	if (pending.length === 0) return "No reviews pending.";
	return pending
		.map((info) =>
			JSON.stringify({
				tab_name: info.title,
				path: info.note,
				session: info.session,
				since: info.since,
				originalChars: info.beforeChars,
				proposedChars: info.afterChars,
				isNewFile: info.isNewFile,
			}),
		)
		.join("\n");
}

function accept(reviews: PendingReviews, args: string[]): string {
	let textFile: string | undefined;
	const names: string[] = [];
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] ?? "";
		if (arg === "--text-file") {
			textFile = args[++i];
			if (textFile === undefined) throw new Error("--text-file needs a file name");
		} else names.push(arg);
	}
	const review = chooseReview(reviews, names);
	const finalText = textFile === undefined ? undefined : readFileSync(resolve(textFile), "utf8");
	const outcome = reviews.accept(review.title, finalText, review.id);
	if (outcome.kind === "refused") return `Not accepted: ${outcome.reason}`;
	return `Accepted ${JSON.stringify(review.title)}${finalText === undefined ? "" : ` with the text of ${textFile}`}`;
}

function reject(reviews: PendingReviews, args: string[]): string {
	const [name, ...words] = args;
	const review = chooseReview(reviews, name === undefined ? [] : [name]);
	const reason = words.join(" ").trim();
	reviews.reject(review.title, review.id, reason === "" ? undefined : reason);
	if (reason === "") return `Rejected ${JSON.stringify(review.title)}`;
	// An IDE client's openDiff answer has no place for a reason.
	return `Rejected ${JSON.stringify(review.title)}; ${review.hearsReason === true ? "Claude is told the reason" : "the reason was not passed on: Claude Code's openDiff answer carries none"}`;
}

/** The named review: its exact tab name, or a unique part of it (the hex id) or its note path; or the only one. */
function chooseReview(reviews: PendingReviews, names: string[]): PendingReview {
	if (names.length > 1) throw new Error(`one tab name at most (quote names with spaces); usage: ${USAGE}`);
	const name = names[0];
	const pending = reviews.list();
	if (pending.length === 0) throw new Error("no reviews pending");
	if (name === undefined) {
		const only = reviews.findPending();
		if (!only) throw new Error(`${pending.length} reviews are pending; name one (see "diff list")`);
		return only;
	}
	const exact = reviews.findPending(name);
	if (exact) return exact;
	const matches = pending.filter((info) => info.title.includes(name) || info.note === name);
	const match = matches.length === 1 ? reviews.findPending(matches[0]?.title) : undefined;
	if (!match)
		throw new Error(
			matches.length === 0
				? `no pending review matches ${JSON.stringify(name)}`
				: `${matches.length} reviews match ${JSON.stringify(name)}; give the full tab name`,
		);
	return match;
}
