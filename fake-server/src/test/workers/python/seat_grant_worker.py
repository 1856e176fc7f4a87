"""A seat-grant worker for Python 3, standard library only, written to the contract `fake-server grade` checks
(docs/any-language.md): one delivery per process, the event on stdin, the API root in SEATS_BASE_URL, and the
verdict as the exit code: 0 acknowledge, 3 reject, 1 redeliver.

Flags turn it into the forms the grader's tests calibrate against (fake-server's GradeCalibrationTest), each one
defect of the seat-grant rubric and nothing else:

  --fresh-key-per-attempt  a new Idempotency-Key on every attempt: the server cannot tell a resend from a new grant
  --keyless                no Idempotency-Key at all; everything else right (the rubric's "no key" sample)
  --key-prefix PREFIX      the key is PREFIX + requestId: stable, but not the requestId another producer would send
  --retry-every-error      a key, but every error is retried, 400 and 422 included, until the attempts run out
  --no-request-timeout     no timeout on a request: a held-open answer holds the worker until the server gives up
  --never-give-up          no bound on attempts (like tenacity's default stop_never): an outage is never a nack
  --nack-in-progress       a 409 without a seat is a nack, not a retry (as urllib3's Retry, which never retries 409)
  --borderline             right, but close to the grader's lines: a 1.2 s request timeout (the gateway answers its
                           504 after 1 s) and Retry-After slept to the millisecond
  --flaky-retry-after FILE Retry-After ignored on every other process, counted in FILE: a defect only some runs show
  --request-timeout S      S seconds per request instead of 2
  --trickle S              send each request's headers, then its body S seconds later (a slow client)
  --nack-success           nack even a granted seat (a defect the trickle tests fail on)
"""
import datetime
import http.client
import itertools
import json
import os
import random
import sys
import time
import urllib.error
import urllib.request
import uuid

ACK, NACK, REJECT = 0, 1, 3

MAX_ATTEMPTS = 5
REQUEST_TIMEOUT_S = 2.0  # one attempt; a held-open answer must not hold the worker
BASE_DELAY_S = 0.1  # ceiling of the first jittered wait
MAX_DELAY_S = 2.0  # ceiling of any computed wait
RETRY_AFTER_CAP_S = 10.0  # longest server-requested wait we honour

ARGS = sys.argv[1:]
FRESH_KEY_PER_ATTEMPT = "--fresh-key-per-attempt" in ARGS
KEYLESS = "--keyless" in ARGS
KEY_PREFIX = ARGS[ARGS.index("--key-prefix") + 1] if "--key-prefix" in ARGS else ""
RETRY_EVERY_ERROR = "--retry-every-error" in ARGS
NEVER_GIVE_UP = "--never-give-up" in ARGS
NACK_IN_PROGRESS = "--nack-in-progress" in ARGS
IGNORE_RETRY_AFTER = False
if "--flaky-retry-after" in ARGS:
    COUNTER = ARGS[ARGS.index("--flaky-retry-after") + 1]
    try:
        with open(COUNTER) as counter:
            RUNS = int(counter.read().strip() or "0") + 1
    except FileNotFoundError:
        RUNS = 1
    with open(COUNTER, "w") as counter:
        counter.write(str(RUNS))
    IGNORE_RETRY_AFTER = RUNS % 2 == 1
TRICKLE_S = float(ARGS[ARGS.index("--trickle") + 1]) if "--trickle" in ARGS else 0.0
NACK_SUCCESS = "--nack-success" in ARGS
if "--request-timeout" in ARGS:
    REQUEST_TIMEOUT_S = float(ARGS[ARGS.index("--request-timeout") + 1])
elif "--no-request-timeout" in ARGS:
    REQUEST_TIMEOUT_S = None
elif "--borderline" in ARGS:
    REQUEST_TIMEOUT_S = 1.2


def log_event(**fields):
    """One JSON object per line on stderr: requestId, attempt and outcome, never a URL or a header value."""
    fields = {"at": datetime.datetime.now(datetime.timezone.utc).isoformat(), **fields}
    sys.stderr.write(json.dumps(fields) + "\n")
    sys.stderr.flush()


def read_event():
    event = json.loads(sys.stdin.readline())
    for field in ("requestId", "workspaceId", "userId"):
        if not isinstance(event.get(field), str) or not event[field]:
            raise ValueError("the event has no " + field)
    return event


def seat_id_of(content_type, body):
    if "problem+json" in (content_type or ""):
        return None  # a problem is never a seat, whatever its status
    try:
        seat_id = json.loads(body).get("id")
    except (ValueError, AttributeError):
        return None
    return seat_id if isinstance(seat_id, str) and seat_id else None


def retry_after_s(header):
    if header is None or not header.strip().isdigit():
        return None
    return min(float(header.strip()), RETRY_AFTER_CAP_S)


def classify(status, replayed, seat_id):
    """What one answer means: granted, replayed, retry, or rejected for good."""
    if 200 <= status < 300 and seat_id is not None:
        return "replayed" if replayed else "granted"
    if status == 409 and seat_id is not None:
        return "replayed"  # an earlier attempt or delivery made this seat
    if status == 409:
        return "nack" if NACK_IN_PROGRESS else "retry"  # the key is in progress elsewhere
    if 200 <= status < 300 or status in (408, 429, 500, 502, 503, 504):
        return "retry"  # the seat may exist or the server is busy; the key makes a resend safe
    return "retry" if RETRY_EVERY_ERROR else "rejected"


def backoff_s(attempt):
    return random.uniform(0, min(MAX_DELAY_S, BASE_DELAY_S * 2 ** min(attempt - 1, 16)))  # full jitter


class TricklingConnection(http.client.HTTPConnection):
    """Sends the request line and headers, waits TRICKLE_S, then sends the body."""

    def send(self, data):
        if TRICKLE_S and isinstance(data, (bytes, bytearray)) and not data.startswith(b"POST "):
            time.sleep(TRICKLE_S)
        super().send(data)


class TricklingHandler(urllib.request.HTTPHandler):
    def http_open(self, req):
        return self.do_open(TricklingConnection, req)


OPENER = urllib.request.build_opener(TricklingHandler) if TRICKLE_S else urllib.request.build_opener()


def post(url, key, body):
    headers = {"content-type": "application/json"}
    if key is not None:
        headers["idempotency-key"] = key
    request = urllib.request.Request(url, data=body, method="POST", headers=headers)
    try:
        with OPENER.open(request, timeout=REQUEST_TIMEOUT_S) as response:
            return response.status, response.headers, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as answer:  # any 4xx or 5xx: still an answer to classify
        return answer.code, answer.headers, answer.read().decode("utf-8", "replace")


def grant(event, base_url):
    url = base_url + "/v1/seats"
    body = json.dumps({"workspaceId": event["workspaceId"], "userId": event["userId"], "role": "member"}).encode()
    attempts = itertools.count(1) if NEVER_GIVE_UP else range(1, MAX_ATTEMPTS + 1)
    for attempt in attempts:
        if KEYLESS:
            key = None
        elif FRESH_KEY_PER_ATTEMPT:
            key = str(uuid.uuid4())
        else:
            key = KEY_PREFIX + event["requestId"]
        wait = backoff_s(attempt)
        try:
            status, headers, text = post(url, key, body)
            seat_id = seat_id_of(headers.get("content-type"), text)
            outcome = classify(status, headers.get("idempotent-replayed") == "true", seat_id)
            log_event(event="seat.grant.attempt", requestId=event["requestId"], attempt=attempt, outcome=outcome,
                      status=status, seatId=seat_id)
            if outcome in ("granted", "replayed"):
                return NACK if NACK_SUCCESS else ACK
            if outcome == "rejected":
                return REJECT
            if outcome == "nack":
                return NACK
            server_wait = None if IGNORE_RETRY_AFTER else retry_after_s(headers.get("retry-after"))
            wait = wait if server_wait is None else server_wait
        except (OSError, http.client.HTTPException) as err:
            # A timeout, reset or close after the request went out: the server may have committed. Only the
            # error's class is logged; its text can carry the URL.
            log_event(event="seat.grant.attempt", requestId=event["requestId"], attempt=attempt, outcome="retry",
                      error=type(err).__name__)
        if NEVER_GIVE_UP or attempt < MAX_ATTEMPTS:
            time.sleep(wait)
    log_event(event="seat.grant.outcome", requestId=event["requestId"], outcome="exhausted")
    return NACK


def main():
    base_url = os.environ.get("SEATS_BASE_URL")
    if not base_url:
        log_event(event="seat.grant.misconfigured", reason="SEATS_BASE_URL is not set")
        return NACK
    try:
        event = read_event()
    except (ValueError, TypeError) as err:
        log_event(event="seat.grant.malformed", error=type(err).__name__)
        return REJECT  # a line that is not an event will not become one on redelivery
    return grant(event, base_url)


if __name__ == "__main__":
    sys.exit(main())
