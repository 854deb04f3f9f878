// Drives `lychee mcp` over stdio with the TypeScript MCP SDK's client.
// Usage: node mcp-stdio.mjs <command> [args...]; prints one JSON object with the tools and two tool results.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
const client = new Client({ name: "lychee-smoke", version: "1.0.0" });
await client.connect(transport);
const out = {};
out.tools = (await client.listTools()).tools.map((t) => t.name).sort();
out.remember = await client.callTool({ name: "remember", arguments: { note: "The spare key is under the blue flower pot." } });
out.recall = await client.callTool({ name: "recall", arguments: { question: "Where is the spare key?" } });
out.bad = await client.callTool({ name: "recall", arguments: { k: 3 } }).catch((e) => ({ thrown: String(e.message || e) }));
await client.close();
process.stdout.write(JSON.stringify(out));
