// A seat-grant worker for Node 20, no npm packages, written to the contract `fake-server grade` checks
// (docs/any-language.md): one delivery per process, the event on stdin, the API root in SEATS_BASE_URL,
// and the verdict as the exit code: 0 acknowledge, 3 reject, 1 redeliver.
//
// `--fresh-key-per-attempt` turns it into the broken form the grader must catch: a new Idempotency-Key on
// every attempt, so the server cannot tell a resend from a new grant.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

const ACK = 0;
const NACK = 1;
const REJECT = 3;

const MAX_ATTEMPTS = 5;
const REQUEST_TIMEOUT_MS = 2_000; // one attempt; a held-open answer must not hold the worker
const BASE_DELAY_MS = 100; // ceiling of the first jittered wait
const MAX_DELAY_MS = 2_000; // ceiling of any computed wait
const RETRY_AFTER_CAP_MS = 10_000; // longest server-requested wait we honour

const freshKeyPerAttempt = process.argv.includes("--fresh-key-per-attempt");

// One JSON object per line: requestId, attempt and outcome on every line, never a URL or a header value.
function logEvent(fields) {
  process.stderr.write(JSON.stringify({ at: new Date().toISOString(), ...fields }) + "\n");
}

async function readEvent() {
  let text = "";
  for await (const chunk of process.stdin) {
    text += chunk;
  }
  const event = JSON.parse(text.split("\n")[0]);
  for (const field of ["requestId", "workspaceId", "userId"]) {
    if (typeof event[field] !== "string" || event[field] === "") {
      throw new Error(`the event has no ${field}`);
    }
  }
  return event;
}

function seatIdOf(contentType, body) {
  if ((contentType ?? "").includes("problem+json")) {
    return null; // a problem is never a seat, whatever its status
  }
  try {
    const parsed = JSON.parse(body);
    return typeof parsed?.id === "string" && parsed.id !== "" ? parsed.id : null;
  } catch {
    return null;
  }
}

function retryAfterMs(header) {
  if (header === null || !/^\d+$/.test(header.trim())) {
    return null;
  }
  return Math.min(Number(header.trim()) * 1000, RETRY_AFTER_CAP_MS);
}

// What one answer means: done (granted or replayed), try again, or give up for good.
function classify(status, replayed, seatId) {
  if (status >= 200 && status < 300 && seatId !== null) {
    return replayed ? { outcome: "replayed" } : { outcome: "granted" };
  }
  if (status === 409 && seatId !== null) {
    return { outcome: "replayed" }; // an earlier attempt or delivery made this seat
  }
  if (status === 409) {
    return { outcome: "retry", reason: "key in progress elsewhere" };
  }
  if ((status >= 200 && status < 300) || [408, 429, 500, 502, 503, 504].includes(status)) {
    return { outcome: "retry", reason: "the seat may exist or the server is busy; the key makes a resend safe" };
  }
  return { outcome: "rejected", reason: `${status} will not change on a resend` };
}

function backoffMs(attempt) {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
  return Math.floor(Math.random() * ceiling); // full jitter
}

async function grant(event, baseUrl) {
  const body = JSON.stringify({ workspaceId: event.workspaceId, userId: event.userId, role: "member" });
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const key = freshKeyPerAttempt ? randomUUID() : event.requestId;
    let wait = backoffMs(attempt);
    try {
      const res = await fetch(`${baseUrl}/v1/seats`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": key },
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      const seatId = seatIdOf(res.headers.get("content-type"), text);
      const verdict = classify(res.status, res.headers.get("idempotent-replayed") === "true", seatId);
      logEvent({ event: "seat.grant.attempt", requestId: event.requestId, attempt, outcome: verdict.outcome,
        status: res.status, seatId });
      if (verdict.outcome === "granted" || verdict.outcome === "replayed") {
        return ACK;
      }
      if (verdict.outcome === "rejected") {
        return REJECT;
      }
      wait = retryAfterMs(res.headers.get("retry-after")) ?? wait;
    } catch (err) {
      // A timeout, reset or close after the request went out: the server may have committed. Only the
      // error's name and code are logged; a message can carry the URL.
      logEvent({ event: "seat.grant.attempt", requestId: event.requestId, attempt, outcome: "retry",
        error: err?.name ?? "Error", code: err?.cause?.code ?? null });
    }
    if (attempt < MAX_ATTEMPTS) {
      await sleep(wait);
    }
  }
  logEvent({ event: "seat.grant.outcome", requestId: event.requestId, outcome: "exhausted" });
  return NACK;
}

async function main() {
  const baseUrl = process.env.SEATS_BASE_URL;
  if (!baseUrl) {
    logEvent({ event: "seat.grant.misconfigured", reason: "SEATS_BASE_URL is not set" });
    return NACK;
  }
  let event;
  try {
    event = await readEvent();
  } catch (err) {
    logEvent({ event: "seat.grant.malformed", error: err?.name ?? "Error" });
    return REJECT; // a line that is not an event will not become one on redelivery
  }
  return grant(event, baseUrl);
}

process.exitCode = await main();
