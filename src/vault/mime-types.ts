const MIME_TYPES: Record<string, string> = {
	md: "text/markdown",
	markdown: "text/markdown",
	txt: "text/plain",
	csv: "text/csv",
	json: "application/json",
	canvas: "application/json",
	base: "text/yaml",
	yaml: "text/yaml",
	yml: "text/yaml",
	html: "text/html",
	css: "text/css",
	js: "text/javascript",
	ts: "text/plain",
	svg: "image/svg+xml",
	png: "image/png",
	jpg: "image/jpeg",
	jpeg: "image/jpeg",
	gif: "image/gif",
	webp: "image/webp",
	bmp: "image/bmp",
	avif: "image/avif",
	pdf: "application/pdf",
	mp3: "audio/mpeg",
	wav: "audio/wav",
	ogg: "audio/ogg",
	m4a: "audio/mp4",
	mp4: "video/mp4",
	webm: "video/webm",
	mov: "video/quicktime",
};

export function mimeTypeFor(path: string): string {
	const dot = path.lastIndexOf(".");
	const extension = dot >= 0 ? path.slice(dot + 1).toLowerCase() : "";
	return MIME_TYPES[extension] ?? "application/octet-stream";
}

export function isTextMimeType(mimeType: string): boolean {
	return mimeType.startsWith("text/") || mimeType === "application/json" || mimeType === "image/svg+xml";
}
