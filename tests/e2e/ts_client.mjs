// The official TypeScript SDK client, driven by the end-to-end tests: spawn a command over stdio,
// make the requests a JSON spec lists, print one JSON line per outcome (result or error), exit 0.
//
//   node ts_client.mjs '{"command": "...", "args": [...], "env": {...},
//                        "requests": [{"method": "tools/call", "params": {...}}, ...]}'
//
// Requests go through Client.request with a permissive result schema, so the SDK's own id
// matching, envelope checks and error mapping decide what the client accepts, as in real use.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { z } from "zod";

const spec = JSON.parse(process.argv[2]);
const transport = new StdioClientTransport({
  command: spec.command,
  args: spec.args,
  env: spec.env,
  stderr: "ignore",
});
const client = new Client({ name: "lazaretto-tests", version: "1.0.0" });
const unmatched = [];
client.onerror = (error) => unmatched.push(String(error && error.message));
await client.connect(transport);
const timeout = spec.timeoutMs ?? 5000;
for (const request of spec.requests) {
  try {
    const result = await client.request(request, z.object({}).passthrough(), { timeout });
    console.log(JSON.stringify({ result }));
  } catch (error) {
    console.log(JSON.stringify({ error: { code: error.code, message: String(error.message) } }));
  }
}
console.log(JSON.stringify({ client_errors: unmatched }));
await client.close();
process.exit(0);
