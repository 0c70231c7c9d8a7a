// A stock MCP client: the official TypeScript SDK's Client, each call its ordinary callTool(params)
// (no result schema of its own, no option), for tests/harness/mcp/test_ts_client.py.
//
//   node client.mjs NODE_MODULES < plan.json
//
// plan.json: {"sessions": [{"command": [...], "calls": [{"name": ..., "arguments": {...}}, ...]}, ...]}.
// Each session starts its command over stdio, initializes, lists the tools (as a client does; the SDK
// caches each listed outputSchema and validates results against it), then makes the calls in order.
// Prints one JSON object: the SDK's version, and per session the tools as listed (name, whether an
// outputSchema came with it) and per call either {"result": the CallToolResult callTool resolved with}
// or {"raised": "<name>: <message>", "code": <MCP error code or null>}.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

// The SDK is installed outside this folder (make ts-client: .cache/ts-client/node_modules), so it is
// resolved from there; its CommonJS build is one of the two the package ships for its public entry points.
const modules = process.argv[2];
if (!modules) {
  console.error("usage: node client.mjs NODE_MODULES < plan.json");
  process.exit(2);
}
const require = createRequire(join(resolve(modules), "ts-client.cjs"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
// the package's own manifest (its "./*" export would map package.json into dist/)
const sdkManifest = join(resolve(modules), "@modelcontextprotocol", "sdk", "package.json");
const { version } = JSON.parse(readFileSync(sdkManifest, "utf-8"));

async function session({ command, calls }) {
  const transport = new StdioClientTransport({
    command: command[0],
    args: command.slice(1),
    env: { ...process.env },
    stderr: "inherit",
  });
  const client = new Client({ name: "ts-client-test", version: "0.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const listed = tools.map((t) => ({ name: t.name, outputSchema: Boolean(t.outputSchema) }));
    const results = [];
    for (const { name, arguments: args } of calls) {
      try {
        results.push({ result: await client.callTool({ name, arguments: args }) });
      } catch (err) {
        results.push({ raised: `${err?.name}: ${err?.message}`, code: err?.code ?? null });
      }
    }
    return { tools: listed, results };
  } finally {
    await client.close();
  }
}

const plan = JSON.parse(readFileSync(0, "utf-8"));
const sessions = [];
for (const s of plan.sessions) {
  sessions.push(await session(s));
}
process.stdout.write(JSON.stringify({ sdk: version, sessions }) + "\n");
