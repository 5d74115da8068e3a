/**
 * The Host check against DNS rebinding, for the IDE WebSocket server and the vault tools' HTTP server: a Host
 * header must name loopback (`127.0.0.1`, `localhost` or `[::1]`, any case) and, when it gives a port, our port
 * (none while the server is not listening).
 */
export function isLoopbackHost(host: string | undefined, listeningPort: number | undefined): boolean {
	if (host === undefined) return false;
	const match = /^(127\.0\.0\.1|localhost|\[::1\])(?::(\d+))?$/i.exec(host);
	if (!match) return false;
	return match[2] === undefined || Number(match[2]) === listeningPort;
}
