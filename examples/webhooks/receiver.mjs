// An AssetCheck webhook receiver with Node.js's standard library alone (node:http, node:crypto).
//
// It verifies `webhook-signature` (Standard Webhooks, which also covers the id and the
// timestamp), refuses a timestamp more than five minutes away (a replayed request), and
// processes each `webhook-id` once: retries and redeliveries repeat the id.
//
//     WEBHOOK_SECRET=whsec_... node receiver.mjs [PORT]
//
// PORT 0 picks a free port; the first line printed is the address listened on. Each event
// processed is printed as one JSON line.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

// Seconds a timestamp may be from now: a captured request cannot be replayed later.
const TOLERANCE = 5 * 60;
// Milliseconds a processed webhook-id is remembered: the whole retry schedule, with room to spare.
const REMEMBER = 24 * 60 * 60 * 1000;

// The event of `body` (a Buffer) when `headers` (Node lowercases their names) sign it with
// `secret`; throws otherwise.
export function verify(secret, headers, body, now = Date.now() / 1000) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (!id || !/^\d+$/.test(timestamp ?? "") || !signatures) {
    throw new Error("missing webhook-id, webhook-timestamp or webhook-signature");
  }
  if (Math.abs(now - Number(timestamp)) > TOLERANCE) throw new Error("stale timestamp");
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]))
    .digest();
  // During a secret rotation there are two signatures, space-separated: either may match.
  for (const signature of signatures.split(" ")) {
    const [version, value] = signature.split(",", 2);
    const given = Buffer.from(value ?? "", "base64");
    if (version === "v1" && given.length === expected.length && timingSafeEqual(given, expected)) {
      return JSON.parse(body.toString("utf8"));
    }
  }
  throw new Error("no valid signature");
}

const seen = new Map(); // webhook-id -> when it was processed

// Record `id`; false when it was already there (a duplicate).
function firstTime(id) {
  const now = Date.now();
  for (const [old, at] of seen) if (now - at > REMEMBER) seen.delete(old);
  if (seen.has(id)) return false;
  seen.set(id, now);
  return true;
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    const body = Buffer.concat(chunks); // the raw bytes, before any parsing
    let event;
    try {
      event = verify(process.env.WEBHOOK_SECRET ?? "", request.headers, body);
    } catch {
      response.writeHead(401).end();
      return;
    }
    const id = request.headers["webhook-id"];
    if (firstTime(id)) console.log(JSON.stringify({ webhook_id: id, ...event }));
    response.writeHead(204).end(); // a duplicate is acknowledged too, or it would be retried
  });
});

server.listen(Number(process.argv[2] ?? 8000), "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`);
});
