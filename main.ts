import ClaudeCodeBridgePlugin from "./src/plugin";

export default ClaudeCodeBridgePlugin;
