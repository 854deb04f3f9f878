// Drives a running Lychee server with mem0's own client (MemoryClient), pointed at the local host.
// Usage: node mem0-client.mjs <host> <apiKey> <userId>; prints one JSON object with every step's result.
import MemoryClient from "mem0ai";

const [host, apiKey, userId] = process.argv.slice(2);
const client = new MemoryClient({ apiKey, host });
const out = {};
out.add = await client.add(
  [
    { role: "user", content: "I moved to Lisbon in March and I love the tram rides." },
    { role: "assistant", content: "Lisbon is lovely; the trams are a classic." },
  ],
  { userId, runId: "trip-1" },
);
out.search = await client.search("Where did I move?", { filters: { user_id: userId }, topK: 5 });
out.all = await client.getAll({ filters: { user_id: userId } });
out.deleted = await client.deleteAll({ userId });
out.after = await client.getAll({ filters: { user_id: userId } });
try {
  await client.search("anything", { filters: { user_id: "someone-else" } });
  out.foreign = "allowed";
} catch (e) {
  out.foreign = String(e.message || e);
}
process.stdout.write(JSON.stringify(out));
