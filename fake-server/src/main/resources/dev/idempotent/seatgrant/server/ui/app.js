/*
 * The incident page: follows the fake server's admin API and draws every attempt, commit, fault and duplicate.
 *
 * Why it is built this way:
 * - Data comes by fetch polling, once a second, so every request can carry the admin token in the Authorization
 *   header (EventSource cannot send headers, and a token in a URL ends up in logs and history).
 * - The token is asked for only when the server answers 401, and kept in sessionStorage: it dies with the tab.
 * - The journal is read incrementally, a page at a time (GET /__admin/requests?after=SEQ&limit=N, then each page's
 *   next), and only the lanes in view are in the DOM, so a full journal loads without one huge answer and 10,000
 *   entries stay cheap.
 * - Everything the server sent is written with textContent, never parsed as HTML: a key is attacker-chosen text.
 */
(function () {
  'use strict';

  var POLL_MS = 1000;
  var ROW_PX = 56;
  var OVERSCAN = 6;
  var TOKEN_KEY = 'fake-server-admin-token';
  var MAX_STORY_ATTEMPTS = 200;
  var MAX_ENTRIES = 100000;   // the server's default journal bound: a page left open for days stays bounded too
  var PAGE = 2000;            // entries per journal request
  var MAX_PAGES = 50;         // journal requests per poll: a full journal in one poll, and never more
  var SVG_NS = 'http://www.w3.org/2000/svg';
  var WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

  var state = {
    entries: [],          // journal entries, in seq order
    lastSeq: null,        // highest seq seen; null before the first read
    lanes: new Map(),     // lane id -> lane
    ordered: [],          // lanes, oldest first
    shown: [],            // lanes that pass the filter
    ledger: null,
    proxied: false,      // the server is a proxy (its ledger says kind: proxy): operations and resources, not grants and seats
    plan: null,
    duplicateUsers: new Map(), // JSON [workspace, user] -> seat count, from the ledger
    suspects: new Map(),  // through a proxy: operation -> its group of suspected duplicates, from the ledger
    selected: null,
    filter: '',
    onlyDuplicates: false,
    t0: Infinity,        // earliest and latest journal time, in ms
    t1: -Infinity,
    summary: null,
    generation: 0,       // bumped by a reset, so a poll that was out during it is thrown away
    access: 'loading',   // what the admin API last said: loading, ok, token, refused, unreachable
    accessDetail: '',
    timer: null,
    busy: false
  };

  var el = {};

  function $(id) { return document.getElementById(id); }

  function init() {
    ['connection', 'updated', 'token-form', 'token-input', 'token-why', 'ledger-seats', 'ledger-keys', 'ledger-duplicates',
      'ledger-seats-label', 'ledger-keys-label', 'timeline-heading', 'legend-committed', 'legend-replay', 'legend-before',
      'legend-duplicate', 'legend-twin', 'legend-upstream-failed', 'legend-suspected',
      'ledger-duplicates-box', 'ledger-suspected-box', 'ledger-suspected', 'ledger-requests', 'ledger-plan', 'scenario-form',
      'scenario-select', 'clear-plan',
      'reset-store', 'control-result', 'filter', 'only-duplicates', 'lane-count', 'axis', 'lanes', 'lanes-spacer',
      'lane-list', 'empty', 'empty-none', 'empty-why', 'story', 'story-heading', 'story-summary', 'story-diagram', 'story-steps', 'story-close'
    ].forEach(function (id) { el[id] = $(id); });

    el['token-form'].addEventListener('submit', function (e) {
      e.preventDefault();
      var token = el['token-input'].value.trim();
      if (!token) { return; }
      if (!/^[\x21-\x7E]+$/.test(token)) {
        // The server refuses such a token at start, and a browser could not send one anyway.
        el['token-why'].textContent = 'An admin token is visible ASCII only: no spaces and no letters beyond ASCII. '
          + 'Check what you typed.';
        return;
      }
      sessionStorage.setItem(TOKEN_KEY, token);
      el['token-input'].value = '';
      el['token-form'].hidden = true;
      pollNow();
    });
    el['scenario-form'].addEventListener('submit', function (e) {
      e.preventDefault();
      control('POST', '/__admin/faults', { scenario: el['scenario-select'].value },
        'Scenario ' + el['scenario-select'].value + ' is now the fault plan.');
    });
    el['clear-plan'].addEventListener('click', function () {
      control('DELETE', '/__admin/faults', null, 'The fault plan is cleared: requests are served normally.');
    });
    el['reset-store'].addEventListener('click', function () {
      var question = state.proxied
        ? 'Reset the ledger, the journal and the fault plan? What the proxy recorded is deleted and the plan is cleared; the upstream keeps its data.'
        : 'Reset the store, the journal and the fault plan? Every seat, key and journal entry is deleted, and the plan is cleared.';
      if (!window.confirm(question)) {
        return;
      }
      control('POST', '/__admin/reset', null, state.proxied ? 'The ledger, the journal and the plan are reset.'
        : 'The store, the journal and the plan are reset.', forgetAll);
    });
    ['input', 'change'].forEach(function (type) {
      el.filter.addEventListener(type, function () {
        var needle = el.filter.value.trim().toLowerCase();
        if (needle !== state.filter) {
          state.filter = needle;
          applyFilter();
        }
      });
    });
    el['only-duplicates'].addEventListener('change', function () {
      state.onlyDuplicates = el['only-duplicates'].checked;
      applyFilter();
    });
    el.lanes.addEventListener('scroll', function () { window.requestAnimationFrame(renderLanes); });
    window.addEventListener('resize', function () { window.requestAnimationFrame(renderAll); });
    el['lane-list'].addEventListener('keydown', laneKeys);
    el['story-close'].addEventListener('click', closeStory);
    document.addEventListener('visibilitychange', function () { if (!document.hidden) { pollNow(); } });
    renderAll();
    pollNow();
  }

  // ------------------------------------------------------------------ talking to the admin API

  function headers(json) {
    var h = { 'Accept': 'application/json' };
    var token = sessionStorage.getItem(TOKEN_KEY);
    if (token) { h['Authorization'] = 'Bearer ' + token; }
    if (json) { h['Content-Type'] = 'application/json'; }
    return h;
  }

  function ApiError(status, detail) {
    this.status = status;
    this.detail = detail;
  }

  function api(method, path, body) {
    return fetch(path, {
      method: method,
      headers: headers(body !== null && body !== undefined),
      body: body === null || body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
      redirect: 'error'
    }).then(function (res) {
      if (res.status === 204) { return null; }
      return res.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (ignored) { data = null; }
        if (!res.ok) {
          throw new ApiError(res.status, data && data.detail ? String(data.detail) : 'HTTP ' + res.status);
        }
        return data;
      });
    });
  }

  function askForToken(refused) {
    el['token-form'].hidden = false;
    el['token-why'].textContent = refused
      ? 'The server refused that token. Enter the admin token again; it is kept for this tab only (sessionStorage) '
        + 'and sent in the Authorization header, never in a URL.'
      : 'This server\'s admin API needs its token. It is kept for this tab only (sessionStorage) and sent in the '
        + 'Authorization header, never in a URL.';
    setConnection('The admin API needs its token.', true);
    if (document.activeElement === document.body || !document.activeElement) { el['token-input'].focus(); }
  }

  function pollNow() {
    window.clearTimeout(state.timer);
    poll();
  }

  function poll() {
    if (state.busy) { return; }
    if (document.hidden) { schedule(); return; }
    state.busy = true;
    var generation = state.generation;
    // Ask from one before the last entry seen: if that entry is gone, the journal was reset behind our back.
    var after = state.lastSeq === null ? 0 : Math.max(0, state.lastSeq - 1);
    Promise.all([
      readJournal(after),
      api('GET', '/__admin/ledger', null),
      api('GET', '/__admin/faults', null)
    ]).then(function (results) {
      if (generation !== state.generation) {
        // The page reset the server while this poll was out: what it read may predate the reset.
        state.busy = false;
        pollNow();
        return;
      }
      var requests = results[0];
      if (state.lastSeq !== null && state.lastSeq > 0 && !requests.some(function (r) { return r.seq === state.lastSeq; })) {
        forgetAll();
        state.busy = false;
        pollNow();
        return;
      }
      var fresh = absorb(requests);
      var summary = JSON.stringify([results[1], results[2]]);
      state.ledger = results[1];
      state.plan = results[2];
      setProxied(!!(state.ledger && state.ledger.kind === 'proxy'));
      setAccess('ok', '');
      if (fresh || summary !== state.summary) {
        state.summary = summary;
        readDuplicates();
        refreshLanes();
      }
      el['token-form'].hidden = true;
      setConnection('Live: following the admin API every ' + (POLL_MS / 1000) + ' s.', false);
      el.updated.textContent = 'Last update ' + clock(Date.now()) + '.';
      state.busy = false;
      schedule();
    }).catch(function (err) {
      state.busy = false;
      if (err instanceof ApiError && err.status === 401) {
        var hadToken = !!sessionStorage.getItem(TOKEN_KEY);
        if (hadToken) { sessionStorage.removeItem(TOKEN_KEY); }
        setAccess('token', '');
        askForToken(hadToken);
        return; // resumes when a token is entered
      }
      if (err instanceof ApiError && err.status === 403) {
        setAccess('refused', err.detail);
        setConnection('The admin API refused this page: ' + err.detail + '.', true);
      } else if (err instanceof ApiError) {
        setAccess('refused', err.detail);
        setConnection('The admin API answered ' + err.status + ' (' + err.detail + '); retrying.', true);
      } else {
        setAccess('unreachable', '');
        setConnection('Cannot reach the server; retrying.', true);
      }
      schedule();
    });
  }

  /**
   * The journal's entries after {@code after}, read a page at a time: each page names the next one's after, and
   * null once it reached the end. At most MAX_PAGES pages a poll; the next poll goes on from the last entry read.
   */
  function readJournal(after) {
    var all = [];
    function page(from, left) {
      return api('GET', '/__admin/requests?after=' + from + '&limit=' + PAGE, null).then(function (journal) {
        var requests = journal && Array.isArray(journal.requests) ? journal.requests : [];
        for (var i = 0; i < requests.length; i++) { all.push(requests[i]); }
        var next = journal ? journal.next : null;
        if (typeof next === 'number' && requests.length && left > 1) { return page(next, left - 1); }
        return all;
      });
    }
    return page(after, MAX_PAGES);
  }

  /** Records what the admin API last said, for the words shown where the lanes would be. */
  function setAccess(access, detail) {
    if (state.access === access && state.accessDetail === detail) { return; }
    state.access = access;
    state.accessDetail = detail;
    renderEmpty();
  }

  function schedule() {
    window.clearTimeout(state.timer);
    state.timer = window.setTimeout(poll, POLL_MS);
  }

  function control(method, path, body, done, then) {
    el['control-result'].classList.remove('error');
    el['control-result'].textContent = 'Working…';
    api(method, path, body).then(function () {
      if (then) { then(); }
      el['control-result'].textContent = done;
      pollNow();
    }).catch(function (err) {
      if (err instanceof ApiError && err.status === 401) {
        askForToken(!!sessionStorage.getItem(TOKEN_KEY));
      }
      el['control-result'].classList.add('error');
      el['control-result'].textContent = 'Refused: ' + (err instanceof ApiError ? err.detail : 'the server is unreachable') + '.';
    });
  }

  /** Says how the page is connected; only a change is written, so the live region speaks only on a change. */
  function setConnection(text, bad) {
    if (el.connection.textContent !== text) { el.connection.textContent = text; }
    el.connection.classList.toggle('error', bad);
  }

  // ------------------------------------------------------------------ the model: entries into lanes

  function forgetEntries() {
    state.entries = [];
    state.lastSeq = null;
    state.lanes = new Map();
    state.ordered = [];
    state.t0 = Infinity;
    state.t1 = -Infinity;
  }

  function forgetAll() {
    state.generation++;
    forgetEntries();
    state.ledger = null;
    state.summary = null;
    state.duplicateUsers = new Map();
    state.suspects = new Map();
    state.selected = null;
    closeStory();
    refreshLanes();
  }

  function millis(at) {
    // Instant.toString can carry nanoseconds; Date.parse wants at most milliseconds.
    return Date.parse(String(at).replace(/(\.\d{3})\d+/, '$1'));
  }

  /** Adds the entries not seen yet to their lanes; returns how many were new. */
  function absorb(requests) {
    var fresh = 0;
    requests.forEach(function (r) {
      if (typeof r.seq === 'number' && state.lastSeq !== null && r.seq <= state.lastSeq) { return; }
      fresh++;
      var entry = {
        seq: r.seq,
        at: millis(r.at),
        method: r.method,
        path: r.path,
        key: r.idempotencyKey,
        attempt: r.attempt,
        fault: r.fault,
        committed: r.committed === true,
        seatId: r.seatId,
        status: r.status,
        workspaceId: r.workspaceId,
        userId: r.userId,
        sent: r.sent,
        answeredMs: typeof r.answeredMs === 'number' ? r.answeredMs : null,
        drawAt: millis(r.at),
        twinOf: null,
        operation: r.operation || null,
        upstreamStatus: r.upstreamStatus === undefined ? null : r.upstreamStatus,
        upstreamError: r.upstreamError || null
      };
      state.entries.push(entry);
      if (typeof r.seq === 'number') { state.lastSeq = r.seq; }
      state.t0 = Math.min(state.t0, entry.at);
      state.t1 = Math.max(state.t1, entry.at);
    });
    if (state.entries.length > MAX_ENTRIES) {
      state.entries.splice(0, state.entries.length - MAX_ENTRIES);
      state.t0 = state.entries.reduce(function (min, e) { return Math.min(min, e.at); }, Infinity);
    }
    if (fresh) { buildLanes(); }
    return fresh;
  }

  /**
   * Sorts every entry into its grant's lane. A POST with a key belongs to its key; a keyless POST to its
   * workspace/user. A read (a list of a user's seats) joins that user's keyless lane, or else the first keyed lane
   * for that user, so a check-then-post worker's look before it leaps and a verifier's look afterwards both land in
   * the story of the grant they were about. Rebuilt whole when entries arrive: linear, and cheap at 10,000.
   */
  function buildLanes() {
    var lanes = new Map();
    var keyedByUser = new Map();
    function lane(id, kind, entry) {
      var found = lanes.get(id);
      if (!found) {
        found = { id: id, kind: kind, key: kind === 'key' ? entry.key : null, workspaceId: null, userId: null,
          attempts: [], firstAt: entry.at };
        lanes.set(id, found);
      }
      return found;
    }
    // Ids as JSON arrays: never a character CSS.escape would change (it turns U+0000 into U+FFFD).
    function user(entry) { return JSON.stringify([entry.workspaceId, entry.userId]); }
    var reads = [];
    state.entries.forEach(function (entry) {
      var target;
      if (entry.operation) {
        // Through a proxy: a write is its operation's lane, and so is any request that carried the operation's key.
        if (WRITES.has(entry.method) || entry.operation.indexOf('key') === 0) {
          target = lane(JSON.stringify(['op', entry.operation]), 'op', entry);
          target.operation = entry.operation;
        } else {
          target = lane('other', 'other', entry);
        }
      } else if (entry.method === 'POST' && entry.key) {
        target = lane(JSON.stringify(['key', entry.key]), 'key', entry);
        if (entry.workspaceId && entry.userId && !keyedByUser.has(user(entry))) { keyedByUser.set(user(entry), target); }
      } else if (entry.method === 'POST' && entry.workspaceId && entry.userId) {
        target = lane(JSON.stringify(['user', entry.workspaceId, entry.userId]), 'user', entry);
      } else if (entry.workspaceId && entry.userId) {
        reads.push(entry);
        return;
      } else {
        target = lane('other', 'other', entry);
      }
      target.attempts.push(entry);
    });
    reads.forEach(function (entry) {
      var id = JSON.stringify(['user', entry.workspaceId, entry.userId]);
      var target = lanes.get(id) || keyedByUser.get(user(entry)) || lane(id, 'user', entry);
      target.attempts.push(entry);
    });
    var ordered = Array.from(lanes.values());
    ordered.forEach(function (l) {
      l.attempts.sort(function (a, b) { return a.at - b.at || a.seq - b.seq; });
      if (l.kind === 'key' || l.kind === 'op') {
        // One key (or operation) counts every attempt of the lane: that count is the order the server took them in.
        inKeyOrder(l.attempts, function (a) { return a.attempt > 0 && (l.kind === 'op' || a.method === 'POST'); });
      } else {
        postsInArrivalOrder(l.attempts);
      }
      l.firstAt = l.attempts.reduce(function (min, a) { return Math.min(min, a.at); }, Infinity);
      markTwins(l.attempts);
      l.attempts.forEach(function (a) {
        if (!l.workspaceId && a.workspaceId) { l.workspaceId = a.workspaceId; }
        if (!l.userId && a.userId) { l.userId = a.userId; }
      });
    });
    ordered.sort(function (a, b) { return a.firstAt - b.firstAt || (a.id < b.id ? -1 : 1); });
    state.lanes = lanes;
    state.ordered = ordered;
  }

  /**
   * Puts the POSTs of a lane (sorted by time, then seq) that share a millisecond in the order they arrived. The
   * journal's times are to the millisecond, so two POSTs of one grant often share one; then the server's attempt
   * count (taken as each request was read, in order) says which came first. The seq does not: an entry takes it
   * when its answer is chosen, so an attempt held for a delayed 504 takes a later seq than a twin that came after
   * it and was answered at once. Reads keep their places. A lane's POSTs share one key, or are all keyless for
   * one user; keyless POSTs are counted per body, so two different grants for one user in the same millisecond
   * may be put in the wrong order (a retry takes longer than that).
   */
  function postsInArrivalOrder(attempts) {
    for (var start = 0; start < attempts.length;) {
      var end = start + 1; // one step at least, whatever the time reads
      while (end < attempts.length && attempts[end].at === attempts[start].at) { end++; }
      var slots = [];
      for (var i = start; i < end; i++) {
        if (attempts[i].method === 'POST') { slots.push(i); }
      }
      var posts = slots.map(function (k) { return attempts[k]; })
        .sort(function (a, b) { return a.attempt - b.attempt || a.seq - b.seq; });
      slots.forEach(function (k, n) { attempts[k] = posts[n]; });
      start = end;
    }
  }

  /**
   * Puts the attempts of a lane's key in the order the server took the key, by its attempt count, in the places
   * those attempts held; other entries keep theirs. A twin whose first byte came first but whose body came last was
   * drawn before the seat it replays: by first bytes, to the millisecond, the journal cannot tell who took the key.
   * Each such attempt is then drawn no earlier than the one before it ({@code drawAt}), so the marks read in order.
   */
  function inKeyOrder(attempts, counted) {
    var slots = [];
    attempts.forEach(function (a, i) { if (counted(a)) { slots.push(i); } });
    var byKey = slots.map(function (i) { return attempts[i]; })
      .sort(function (a, b) { return a.attempt - b.attempt || a.at - b.at || a.seq - b.seq; });
    slots.forEach(function (i, n) { attempts[i] = byKey[n]; });
    var last = -Infinity;
    attempts.forEach(function (a) {
      a.drawAt = counted(a) ? Math.max(a.at, last) : a.at;
      if (counted(a)) { last = a.drawAt; }
    });
  }

  /**
   * Names the twin deliveries among a lane's POSTs: an attempt that arrived while an earlier attempt of the same
   * grant was still waiting for its answer (its first byte before the earlier one's answer left) is the same
   * event delivered twice at once, not a retry, which comes after an answer (or its loss). An earlier attempt
   * with no answer written (a reset, a close) cannot be timed, so it makes no twin.
   */
  function markTwins(attempts) {
    var posts = attempts.filter(function (a) { return a.method === 'POST'; });
    posts.forEach(function (a, i) {
      a.twinOf = null;
      for (var j = 0; j < i; j++) {
        var earlier = posts[j];
        if (earlier.answeredMs !== null && a.at < earlier.at + earlier.answeredMs) {
          a.twinOf = earlier;
          return;
        }
      }
    });
  }

  function readDuplicates() {
    state.duplicateUsers = new Map();
    var dups = state.ledger && Array.isArray(state.ledger.duplicates) ? state.ledger.duplicates : [];
    dups.forEach(function (d) {
      state.duplicateUsers.set(JSON.stringify([d.workspaceId, d.userId]), (d.seatIds || []).length);
    });
    state.suspects = new Map();
    var groups = state.ledger && Array.isArray(state.ledger.suspected) ? state.ledger.suspected : [];
    groups.forEach(function (g) {
      (g.operations || []).forEach(function (op) { state.suspects.set(op, g); });
    });
  }

  /** What a lane adds up to: seats it created, replays it got, and whether it is a duplicate (and why). */
  function facts(lane) {
    var seats = new Set();
    var twinSeats = new Set();
    var replays = 0;
    var twins = 0;
    lane.attempts.forEach(function (a) {
      if (a.committed && a.seatId) { seats.add(a.seatId); }
      if (a.committed && a.seatId && a.twinOf) { twinSeats.add(a.seatId); }
      if (isReplay(a)) { replays++; }
      if (a.twinOf) { twins++; }
    });
    var userSeats = lane.workspaceId && lane.userId
      ? state.duplicateUsers.get(JSON.stringify([lane.workspaceId, lane.userId])) || 0 : 0;
    var duplicate = lane.kind !== 'other' && (seats.size > 1 || userSeats > 1);
    var why = '';
    if (seats.size > 1) {
      // Short, to fit beside the badge: the story says it in full, and the mark carries the twin's arrow.
      why = seats.size + (lane.kind === 'op' ? ' resources for one operation' : ' seats for one grant')
        + (twinSeats.size ? ' (' + (twinSeats.size === 1 ? 'one' : twinSeats.size) + ' by a twin)' : '');
    } else if (duplicate) {
      why = 'this user holds ' + userSeats + ' seats across grants';
    }
    // Through a proxy: alike with other operations, each of which created something; a lead, not a proof.
    var group = lane.kind === 'op' && !duplicate ? state.suspects.get(lane.operation) : null;
    var suspected = !!group;
    if (suspected) {
      why = 'one of ' + group.operations.length + ' operations on ' + group.method + ' ' + group.path
        + ' with bodies alike, each of which created a resource';
    }
    return { seats: seats.size, replays: replays, duplicate: duplicate, suspected: suspected, why: why, twins: twins };
  }

  function isReplay(a) {
    return !a.committed && !!a.seatId;
  }

  function laneName(lane) {
    if (lane.kind === 'op') {
      if (lane.operation.indexOf('fingerprint:') === 0) {
        return 'fingerprint ' + lane.operation.slice('fingerprint:'.length, 'fingerprint:'.length + 12) + '\u2026 (no key)';
      }
      if (lane.operation.indexOf('json:') === 0) { return 'body ' + lane.operation.slice(5); }
      return lane.operation.indexOf('key:') === 0 ? 'key ' + lane.operation.slice(4) : 'key ' + lane.operation;
    }
    if (lane.kind === 'key') { return 'key ' + lane.key; }
    if (lane.kind === 'user') { return lane.workspaceId + ' / ' + lane.userId + ' (no key)'; }
    return 'other requests (no readable grant)';
  }

  function laneSearchText(lane) {
    return [lane.key || '', lane.operation || '', lane.workspaceId || '', lane.userId || ''].join(' ').toLowerCase();
  }

  /** What a lane's requests create: seats on the seat server, resources behind a proxy. */
  function noun() {
    return state.proxied ? 'resource' : 'seat';
  }

  function plural(n, word) {
    return n + ' ' + word + (n === 1 ? '' : 's');
  }

  function factLine(lane, f) {
    return factParts(lane, f).join(' · ');
  }

  /** A lane's counts, each one phrase: attempts, reads, seats (resources), replays, twin deliveries. */
  function factParts(lane, f) {
    var posts = lane.attempts.filter(isAttempt).length;
    var parts = [plural(posts, 'attempt')];
    if (lane.attempts.length > posts) { parts.push(plural(lane.attempts.length - posts, 'read')); }
    if (!(f.duplicate && f.seats > 1)) { parts.push(plural(f.seats, noun())); }
    if (f.replays) { parts.push(plural(f.replays, 'replay')); }
    if (f.twins && !(f.duplicate && f.seats > 1)) { parts.push(f.twins + (f.twins === 1 ? ' twin delivery' : ' twin deliveries')); }
    return parts;
  }

  // ------------------------------------------------------------------ drawing

  function refreshLanes() {
    applyFilter();
    renderLedger();
    if (state.selected) {
      var lane = state.lanes.get(state.selected);
      if (lane) { renderStory(lane, false); } else { closeStory(); }
    }
  }

  function applyFilter() {
    var needle = state.filter;
    state.shown = state.ordered.filter(function (lane) {
      if (needle && laneSearchText(lane).indexOf(needle) < 0) { return false; }
      return !state.onlyDuplicates || facts(lane).duplicate;
    });
    el['lane-count'].textContent = 'Showing ' + plural(state.shown.length, 'lane') + ' of ' + state.ordered.length + '.';
    renderEmpty();
    renderAll();
  }

  /**
   * What stands where the lanes would be when there are none: "no requests yet" only once the journal has been
   * read and is empty; otherwise why it cannot be shown (a token is needed, the API refused, the server is away).
   */
  function renderEmpty() {
    el.empty.hidden = state.ordered.length > 0;
    var why = '';
    if (state.access === 'loading') {
      why = 'Reading the journal\u2026';
    } else if (state.access === 'token') {
      why = 'A token is needed: this server\'s admin API answered 401, so its requests cannot be shown until you '
        + 'enter the admin token above.';
    } else if (state.access === 'refused') {
      why = 'The admin API refused this page (' + state.accessDetail + '), so the server\'s requests cannot be shown.';
    } else if (state.access === 'unreachable') {
      why = 'Cannot reach the server; its requests appear once it answers.';
    }
    el['empty-none'].hidden = why !== '';
    el['empty-why'].hidden = why === '';
    el['empty-why'].textContent = why;
  }

  function renderAll() {
    renderAxis();
    renderLanes();
  }

  function renderLedger() {
    var l = state.ledger;
    el['ledger-seats'].textContent = l ? String(state.proxied ? l.created : l.seats) : '–';
    el['ledger-keys'].textContent = l ? String(state.proxied ? l.operations : l.keys) : '–';
    var dups = l && Array.isArray(l.duplicates) ? l.duplicates.length : null;
    if (state.proxied) {
      el['ledger-duplicates'].textContent = dups === null ? '–'
        : (dups === 0 ? '0 (one resource per operation)'
          : dups + (dups === 1 ? ' operation' : ' operations') + ' created more than one resource');
    } else {
      el['ledger-duplicates'].textContent = dups === null ? '–'
        : (dups === 0 ? '0 (one seat per user)' : dups + (dups === 1 ? ' user holds' : ' users hold') + ' more than one seat');
    }
    el['ledger-duplicates'].setAttribute('data-count', dups === null ? '' : String(dups));
    el['ledger-duplicates-box'].classList.toggle('has-dup', !!dups);
    var suspects = l && Array.isArray(l.suspected) ? l.suspected.length : null;
    el['ledger-suspected-box'].hidden = !state.proxied;
    el['ledger-suspected'].textContent = suspects === null ? '–'
      : (suspects === 0 ? '0 (no operations alike)'
        : suspects + (suspects === 1 ? ' group' : ' groups') + ' of operations alike, each of which created a resource');
    el['ledger-suspected'].setAttribute('data-count', suspects === null ? '' : String(suspects));
    el['ledger-suspected-box'].classList.toggle('has-suspect', !!suspects);
    el['ledger-requests'].textContent = String(state.entries.length);
    el['ledger-plan'].textContent = describePlan(state.plan);
  }

  function describePlan(plan) {
    if (!plan) { return '–'; }
    var rules = Array.isArray(plan.rules) ? plan.rules : [];
    var source = plan.scenario ? 'scenario ' + plan.scenario : (rules.length ? 'a custom plan' : 'none: every request is served');
    if (!rules.length) { return source; }
    return source + ' — ' + rules.map(describeRule).join('; ');
  }

  function describeRule(rule) {
    var what = rule.fault + (rule.status ? ' ' + rule.status : '') + (rule.delayMs ? ' after ' + rule.delayMs + ' ms' : '');
    var when = [];
    if (rule.method || rule.path) { when.push((rule.method || '*') + ' ' + (rule.path || '*')); }
    if (rule.attempt) { when.push('attempt ' + rule.attempt); }
    if (rule.every) { when.push('every ' + rule.every); }
    if (rule.probability !== undefined && rule.probability !== null) { when.push('p=' + rule.probability); }
    return what + (when.length ? ' on ' + when.join(', ') : '');
  }

  function span() {
    return Math.max(state.t1 - state.t0, 1000);
  }

  /** Where a time sits on a track's times (the track less an inset for half a mark at each end), in percent. */
  function position(at) {
    return 100 * (at - state.t0) / span();
  }

  function renderAxis() {
    var axis = el.axis;
    axis.textContent = '';
    if (!state.entries.length) { return; }
    for (var i = 0; i <= 4; i++) {
      var at = state.t0 + span() * i / 4;
      var tick = document.createElement('span');
      tick.style.left = position(at) + '%';
      tick.textContent = i === 0 ? clock(at) : '+' + ((at - state.t0) / 1000).toFixed(1) + ' s';
      axis.appendChild(tick);
    }
  }

  function renderLanes() {
    var list = el['lane-list'];
    var active = document.activeElement;
    var focusedId = active && active.classList && active.classList.contains('lane-button') ? active.dataset.lane : null;
    el['lanes-spacer'].style.height = (state.shown.length * ROW_PX) + 'px';
    var first = Math.max(0, Math.floor(el.lanes.scrollTop / ROW_PX) - OVERSCAN);
    var last = Math.min(state.shown.length, Math.ceil((el.lanes.scrollTop + el.lanes.clientHeight) / ROW_PX) + OVERSCAN);
    var trackWidth = timesWidth();
    var fragment = document.createDocumentFragment();
    for (var i = first; i < last; i++) {
      fragment.appendChild(laneRow(state.shown[i], i, trackWidth));
    }
    list.textContent = '';
    list.appendChild(fragment);
    if (focusedId !== null) {
      // The focused lane's button was just replaced: focus its new one, or, scrolled away, the timeline itself.
      var again = laneButton(focusedId);
      if (again) { again.focus({ preventScroll: true }); } else { el.lanes.focus({ preventScroll: true }); }
    }
  }

  /** The rendered button of lane {@code id}, found by comparison: no selector has to spell the id. */
  function laneButton(id) {
    var buttons = el['lane-list'].querySelectorAll('.lane-button');
    for (var i = 0; i < buttons.length; i++) {
      if (buttons[i].dataset.lane === id) { return buttons[i]; }
    }
    return null;
  }

  function labelWidth() {
    var button = el['lane-list'].querySelector('.lane-button');
    return button ? button.offsetWidth : 400;
  }

  /**
   * The width marks are placed across: a track's, less its inset at both ends; before any lane is drawn, estimated
   * with the stylesheet's inset (2.8rem of 15 px, twice).
   */
  function timesWidth() {
    var times = el['lane-list'].querySelector('.track-times');
    return Math.max(100, times ? times.offsetWidth : el.lanes.clientWidth - labelWidth() - 84);
  }

  function laneRow(lane, index, trackWidth) {
    var f = facts(lane);
    var li = document.createElement('li');
    li.className = 'lane' + (f.duplicate ? ' duplicate' : '') + (f.suspected ? ' suspected' : '')
      + (state.selected === lane.id ? ' selected' : '');
    li.style.top = (index * ROW_PX) + 'px';
    li.dataset.seats = String(f.seats);
    li.dataset.replays = String(f.replays);
    li.dataset.requests = String(lane.attempts.length);
    li.dataset.duplicate = String(f.duplicate);
    li.dataset.suspected = String(f.suspected);

    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'lane-button';
    button.dataset.lane = lane.id;
    button.dataset.index = String(index);
    button.setAttribute('aria-expanded', String(state.selected === lane.id));
    button.setAttribute('aria-controls', 'story');
    var name = document.createElement('span');
    name.className = 'lane-name';
    name.textContent = laneName(lane);
    var line = document.createElement('span');
    line.className = 'lane-facts';
    if (f.duplicate || f.suspected) {
      var badge = document.createElement('span');
      badge.className = f.duplicate ? 'badge-dup' : 'badge-suspect';
      badge.textContent = f.duplicate ? 'DUPLICATE' : 'SUSPECTED';
      line.appendChild(badge);
    }
    // The counts first, so they always fit the label's two lines; a reason after them may be cut.
    var seatsWhy = f.duplicate && f.seats > 1;
    var counts = document.createElement('span');
    counts.className = 'lane-counts';
    (seatsWhy ? [f.why] : []).concat(factParts(lane, f)).forEach(function (part, i) {
      if (i) { counts.appendChild(document.createTextNode(' · ')); }
      var phrase = document.createElement('span');
      phrase.textContent = part;
      counts.appendChild(phrase);
    });
    line.appendChild(counts);
    if (f.why && !seatsWhy) {
      line.appendChild(document.createTextNode(' · ' + f.why));
    }
    button.appendChild(name);
    button.appendChild(line);
    button.title = laneName(lane) + '\n' + line.textContent;
    button.addEventListener('click', function () { openStory(lane.id); });
    li.appendChild(button);

    var track = document.createElement('div');
    track.className = 'track';
    track.setAttribute('aria-hidden', 'true');
    var times = document.createElement('div');
    times.className = 'track-times';
    track.appendChild(times);
    var rowsEnd = [-Infinity, -Infinity];
    lane.attempts.slice(-60).forEach(function (a) {
      var pct = position(a.drawAt);
      var px = pct / 100 * trackWidth;
      var row = px - rowsEnd[0] >= 46 ? 0 : (px - rowsEnd[1] >= 46 ? 1 : (rowsEnd[0] <= rowsEnd[1] ? 0 : 1));
      rowsEnd[row] = px;
      var mark = document.createElement('span');
      var look = markLook(a);
      mark.className = 'mark ' + look.cls + (a.twinOf ? ' twin' : '');
      mark.textContent = (a.twinOf ? '\u21C9' : '') + look.text;
      mark.title = attemptSentence(a, lane);
      mark.style.left = pct + '%';
      mark.style.top = (row === 0 ? 6 : 29) + 'px';
      times.appendChild(mark);
    });
    li.appendChild(track);
    return li;
  }

  /** A mark's class and text: a symbol and a status, so the colour is never the only signal. */
  function markLook(a) {
    var answer = (a.method === 'POST' ? '' : a.method + ' ')
      + (a.status !== null && a.status !== undefined ? String(a.status) : faultShort(a.fault));
    if (a.upstreamError && !a.fault) { return { cls: 'upstream-failed', text: '!' + answer }; }
    if (a.committed && a.fault) { return { cls: 'committed faulted', text: '\u2713' + answer + '\u26A1' }; }
    if (a.committed) { return { cls: 'committed', text: '\u2713' + answer }; }
    if (isReplay(a)) { return { cls: 'replay', text: '\u21BA' + answer }; }
    if (a.fault) { return { cls: 'faulted', text: '\u2717' + answer }; }
    return { cls: 'other', text: answer };
  }

  function faultShort(fault) {
    if (!fault) { return '—'; }
    if (fault.indexOf('reset') === 0) { return 'RST'; }
    if (fault.indexOf('close') === 0) { return 'FIN'; }
    if (fault.indexOf('hang') === 0) { return 'HANG'; }
    return fault;
  }

  function afterCommit(fault) {
    return !!fault && fault.indexOf('after-commit') > 0;
  }

  /** A seat id cut to fit a diagram's column; the steps below the diagram carry it whole. */
  function short(id) {
    return id && id.length > 18 ? id.slice(0, 17) + '\u2026' : id;
  }

  function answerWords(a, brief) {
    var seat = brief ? short(a.seatId) : a.seatId;
    if (a.status === null || a.status === undefined) {
      if (a.fault && a.fault.indexOf('reset') === 0) { return 'the connection was reset (fault ' + a.fault + '): no answer'; }
      if (a.fault && a.fault.indexOf('close') === 0) { return 'the connection was closed (fault ' + a.fault + '): no answer'; }
      if (a.fault && a.fault.indexOf('hang') === 0) { return 'nothing came back (fault ' + a.fault + ')'; }
      return 'no answer';
    }
    var words = String(a.status) + (a.sent === false && !a.fault ? ' (which never fully reached the socket)' : '');
    if (a.fault) { return words + ' (fault ' + a.fault + ')'; }
    if (a.upstreamError) { return words + ' (the upstream: ' + a.upstreamError + ')'; }
    if (isReplay(a)) { return words + ' replay of ' + noun() + ' ' + seat; }
    if (a.committed) { return words + (state.proxied ? ' created ' : ' Created, seat ') + seat; }
    return words;
  }

  function attemptSentence(a, lane) {
    if (state.proxied) { return proxiedSentence(a); }
    var who = a.method + ' ' + a.path + (a.key ? ' with key ' + a.key : (a.method === 'POST' ? ' without a key' : ''));
    var store;
    if (a.committed) {
      store = 'the store committed seat ' + a.seatId;
    } else if (isReplay(a)) {
      store = 'the store already held seat ' + a.seatId + ' for this key';
    } else if (a.fault && !afterCommit(a.fault)) {
      store = 'the fault struck before the store: nothing written';
    } else if (a.method !== 'POST') {
      store = 'a read of this user\'s seats';
    } else {
      store = 'nothing written';
    }
    var back = answerWords(a);
    var lost = a.committed && a.fault ? ' — the worker never learned the seat was made' : '';
    var twin = a.twinOf ? ' (a twin delivery: it arrived while attempt ' + a.twinOf.attempt
      + ' was still waiting for its answer' + (a.committed ? ', and made a seat of its own' : '') + ')' : '';
    return (a.method === 'POST' ? 'Attempt ' + a.attempt : 'A read') + ' at ' + clock(a.at) + ' (+' + ((a.at - state.t0) / 1000).toFixed(2) + ' s)' + twin + ': '
      + who + '; ' + store + '; back came ' + back + lost + '.';
  }

  /** One request through a proxy, in words: what it sent, what the upstream did, what came back to the client. */
  function proxiedSentence(a) {
    var who = a.method + ' ' + a.path + (a.key ? ' with key ' + a.key : ' without a key');
    var upstream;
    if (a.fault && !afterCommit(a.fault)) {
      upstream = 'the fault struck before the upstream: nothing was sent to it';
    } else if (a.upstreamError) {
      upstream = 'the upstream gave no answer (' + a.upstreamError + ')';
    } else if (a.upstreamStatus === null) {
      upstream = 'the proxy refused it: nothing was sent upstream';
    } else if (a.committed) {
      upstream = 'the upstream answered ' + a.upstreamStatus + ' and created ' + a.seatId;
    } else if (isReplay(a)) {
      upstream = 'the upstream answered ' + a.upstreamStatus + ' with ' + a.seatId + ', which this operation already had';
    } else {
      upstream = 'the upstream answered ' + a.upstreamStatus;
    }
    var lost = a.committed && a.fault ? ' — the client never learned ' + a.seatId + ' was created' : '';
    var twin = a.twinOf ? ' (a twin: it arrived while attempt ' + a.twinOf.attempt
      + ' was still waiting for its answer' + (a.committed ? ', and created a resource of its own' : '') + ')' : '';
    return (isAttempt(a) ? 'Attempt ' + a.attempt : 'A read') + ' at ' + clock(a.at) + ' (+'
      + ((a.at - state.t0) / 1000).toFixed(2) + ' s)' + twin + ': ' + who + '; ' + upstream + '; back came '
      + answerWords(a) + lost + '.';
  }

  /** A write (a POST, or through a proxy also PUT, PATCH and DELETE) rather than a read. */
  function isAttempt(a) {
    return a.method === 'POST' || (state.proxied && WRITES.has(a.method));
  }

  /** Says "operation" and "resource" for a proxy, "grant" and "seat" for the seat server; only a change is written. */
  function setProxied(proxied) {
    if (state.proxied === proxied) { return; }
    state.proxied = proxied;
    el['ledger-seats-label'].textContent = proxied ? 'Resources created' : 'Seats';
    el['ledger-keys-label'].textContent = proxied ? 'Operations' : 'Keys';
    el['timeline-heading'].textContent = proxied ? 'Timeline: one lane per operation' : 'Timeline: one lane per grant';
    el['reset-store'].textContent = proxied ? 'Reset ledger, journal and fault plan' : 'Reset store, journal and fault plan';
    el['lane-list'].setAttribute('aria-label', proxied ? 'Operations, oldest first' : 'Grants, oldest first');
    el['legend-committed'].textContent = proxied ? 'the upstream created a resource' : 'committed a seat';
    el['legend-replay'].textContent = proxied ? 'an answer naming the resource already created'
      : 'replay of the seat already made';
    el['legend-before'].textContent = proxied ? 'fault before the upstream, nothing forwarded'
      : 'fault before the store, nothing written';
    el['legend-duplicate'].textContent = proxied ? 'more than one resource for one operation'
      : 'more than one seat for one grant or one user';
    el['legend-twin'].textContent = 'a twin delivery: it arrived while an earlier attempt of the same '
      + (proxied ? 'operation' : 'grant') + ' was still waiting for its answer';
    // Only marks that can occur: an upstream and volatile fields exist only behind a proxy.
    el['legend-upstream-failed'].hidden = !proxied;
    el['legend-suspected'].hidden = !proxied;
  }

  function clock(ms) {
    var d = new Date(ms);
    function two(n) { return (n < 10 ? '0' : '') + n; }
    var milli = d.getMilliseconds();
    return two(d.getHours()) + ':' + two(d.getMinutes()) + ':' + two(d.getSeconds()) + '.'
      + (milli < 100 ? (milli < 10 ? '00' : '0') : '') + milli;
  }

  // ------------------------------------------------------------------ keyboard

  function laneKeys(e) {
    var target = e.target;
    if (!target.classList || !target.classList.contains('lane-button')) { return; }
    var index = Number(target.dataset.index);
    var next = null;
    if (e.key === 'ArrowDown') { next = index + 1; }
    if (e.key === 'ArrowUp') { next = index - 1; }
    if (e.key === 'Home') { next = 0; }
    if (e.key === 'End') { next = state.shown.length - 1; }
    if (next === null || next < 0 || next >= state.shown.length) { return; }
    e.preventDefault();
    focusLane(next);
  }

  function focusLane(index) {
    var top = index * ROW_PX;
    if (top < el.lanes.scrollTop) {
      el.lanes.scrollTop = top;
    } else if (top + ROW_PX > el.lanes.scrollTop + el.lanes.clientHeight) {
      el.lanes.scrollTop = top + ROW_PX - el.lanes.clientHeight;
    }
    renderLanes();
    var button = el['lane-list'].querySelector('[data-index="' + index + '"]');
    if (button) { button.focus(); }
  }

  // ------------------------------------------------------------------ the story of one grant

  function openStory(id) {
    state.selected = id;
    var lane = state.lanes.get(id);
    if (!lane) { return; }
    renderStory(lane, true);
    renderLanes();
  }

  function closeStory() {
    var had = state.selected;
    state.selected = null;
    el.story.hidden = true;
    if (had) {
      // Back to the lane the story came from, scrolled into view if it was not; filtered out, the timeline.
      var index = state.shown.findIndex(function (l) { return l.id === had; });
      if (index >= 0) { focusLane(index); } else { renderLanes(); el.lanes.focus(); }
    }
  }

  function renderStory(lane, focus) {
    var f = facts(lane);
    el.story.hidden = false;
    el['story-heading'].textContent = 'Story of ' + laneName(lane);
    el['story-summary'].textContent = (f.duplicate ? 'DUPLICATE: ' + f.why + '. ' : '')
      + (f.suspected ? 'SUSPECTED DUPLICATE: ' + f.why + '. ' : '') + factLine(lane, f) + '.'
      + (lane.attempts.length > MAX_STORY_ATTEMPTS ? ' Showing the last ' + MAX_STORY_ATTEMPTS + ' attempts.' : '');
    el['story-summary'].classList.toggle('duplicate', f.duplicate);
    var attempts = lane.attempts.slice(-MAX_STORY_ATTEMPTS);
    el['story-steps'].textContent = '';
    attempts.forEach(function (a) {
      var li = document.createElement('li');
      li.textContent = attemptSentence(a, lane);
      el['story-steps'].appendChild(li);
    });
    el['story-diagram'].textContent = '';
    el['story-diagram'].appendChild(diagram(attempts));
    if (focus) {
      el['story-heading'].focus({ preventScroll: true });
      // Opened below the fold, it would wait there unseen: show all of it, or its top when it is taller.
      var box = el.story.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) {
        el.story.scrollIntoView({ block: box.height > window.innerHeight ? 'start' : 'end' });
      }
    }
  }

  /**
   * The README's sequence diagrams, drawn from what really happened: worker, server and store (through a proxy:
   * client, proxy and upstream), one block per attempt.
   */
  function diagram(attempts) {
    var X = { worker: 90, server: 380, store: 670 };
    var proxied = state.proxied;
    var width = 780;
    var step = 26;
    var y = 50;
    var svg = svgEl('svg', { width: width, role: 'presentation' });
    var body = [];
    attempts.forEach(function (a) {
      body.push({ kind: 'when', y: y, text: (isAttempt(a) ? 'attempt ' + a.attempt : 'read')
        + (a.twinOf ? ' (twin delivery)' : '') + ' · ' + clock(a.at) });
      y += 16;
      body.push({ kind: 'arrow', y: y, from: X.worker, to: X.server, cls: '',
        text: a.method + ' ' + a.path + (a.key ? ' · Idempotency-Key ' + a.key : (isAttempt(a) ? ' · no key' : '')) });
      y += step;
      var reachedStore = !(a.fault && !afterCommit(a.fault))
        && (proxied ? a.upstreamStatus !== null || !!a.upstreamError : a.method === 'POST');
      if (reachedStore) {
        body.push({ kind: 'arrow', y: y, from: X.server, to: X.store, cls: '',
          text: proxied ? 'forward' : (a.key ? 'claim key, write seat' : 'write seat') });
        y += step;
        var stored = proxied ? upstreamDid(a)
          : a.committed ? { cls: 'committed', text: 'committed seat ' + short(a.seatId) }
          : (isReplay(a) ? { cls: 'replay', text: 'key done: seat ' + short(a.seatId) + ' exists' } : { cls: '', text: 'nothing written' });
        body.push({ kind: 'arrow', y: y, from: X.store, to: X.server, cls: stored.cls, text: stored.text });
        y += step;
      } else if (a.fault) {
        body.push({ kind: 'note', y: y, x: X.server + 10, cls: 'lost',
          text: 'fault ' + a.fault + (proxied ? ' before the upstream' : ' before the store') });
        y += step;
      }
      var lost = !!a.fault;
      var back = a.committed && lost ? answerWords(a) + ': ' + noun() + ' made, answer lost' : answerWords(a, true);
      body.push({ kind: 'arrow', y: y, from: X.server, to: X.worker, cls: lost ? 'lost' : (isReplay(a) ? 'replay' : (a.committed ? 'committed' : '')),
        text: back });
      y += step + 8;
    });
    var height = y + 10;
    svg.setAttribute('height', String(height));
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    var actors = proxied ? [['client', X.worker], ['proxy', X.server], ['upstream', X.store]]
      : [['worker', X.worker], ['server', X.server], ['store', X.store]];
    actors.forEach(function (actor) {
      svg.appendChild(svgEl('line', { 'class': 'lifeline', x1: actor[1], x2: actor[1], y1: 34, y2: height - 4 }));
      var g = svgEl('g', { 'class': 'actor' });
      g.appendChild(svgEl('rect', { x: actor[1] - 50, y: 6, width: 100, height: 26, rx: 4 }));
      var t = svgEl('text', { x: actor[1], y: 24, 'text-anchor': 'middle' });
      t.textContent = actor[0];
      g.appendChild(t);
      svg.appendChild(g);
    });
    body.forEach(function (item) {
      if (item.kind === 'when') {
        var when = svgEl('text', { 'class': 'when', x: 8, y: item.y });
        when.textContent = item.text;
        svg.appendChild(when);
      } else if (item.kind === 'note') {
        var note = svgEl('text', { 'class': item.cls, x: item.x, y: item.y });
        note.textContent = '\u2717 ' + item.text;
        svg.appendChild(note);
      } else {
        var dir = item.to > item.from ? 1 : -1;
        svg.appendChild(svgEl('line', { 'class': 'arrow ' + item.cls, x1: item.from, y1: item.y, x2: item.to - dir * 8, y2: item.y }));
        svg.appendChild(svgEl('path', { 'class': 'head ' + item.cls,
          d: 'M' + item.to + ' ' + item.y + ' l' + (-dir * 9) + ' -5 v10 z' }));
        var label = svgEl('text', { 'class': item.cls, x: Math.min(item.from, item.to) + 8, y: item.y - 5 });
        label.textContent = (item.cls === 'lost' ? '\u26A1 ' : '') + item.text;
        svg.appendChild(label);
      }
    });
    return svg;
  }

  /** The upstream's side of one forwarded request, for the diagram. */
  function upstreamDid(a) {
    if (a.upstreamError) { return { cls: 'lost', text: 'no answer: ' + a.upstreamError }; }
    if (a.committed) { return { cls: 'committed', text: a.upstreamStatus + ', created ' + short(a.seatId) }; }
    if (isReplay(a)) { return { cls: 'replay', text: a.upstreamStatus + ', ' + short(a.seatId) + ' exists' }; }
    return { cls: '', text: String(a.upstreamStatus) };
  }

  function svgEl(name, attrs) {
    var node = document.createElementNS(SVG_NS, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    return node;
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', init);
  } else {
    init();
  }
}());
