// The trainee's name: the rules the server applies (server/training/trainee_name.cc), the
// `trainee` message, where the browser keeps the name, and what this connection's session
// has been told. Pure: no DOM; storage is handed in.

export const TRAINEE_STORAGE_KEY = 'clamsim.trainee.v1';
export const TRAINEE_MAX_CHARS = 40;

// the server trims these four and nothing else (a no-break space stays part of the name)
const EDGE_SPACE = /^[ \t\n\r]+|[ \t\n\r]+$/g;

export function trimTraineeName(raw) {
  return String(raw).replace(EDGE_SPACE, '');
}

// characters as the server counts them: Unicode code points, not UTF-16 units
export function traineeNameLength(raw) {
  return [...trimTraineeName(raw)].length;
}

// {ok: true, name} (trimmed) or {ok: false, error} with a sentence for the trainee.
export function checkTraineeName(raw) {
  if (typeof raw !== 'string') return { ok: false, error: 'The name must be text.' };
  const name = trimTraineeName(raw);
  if (!name) return { ok: false, error: 'The name is empty: type at least one character.' };
  let chars = 0;
  for (const ch of name) {
    chars += 1;
    const cp = ch.codePointAt(0);
    // a lone surrogate cannot become UTF-8; the server would reject the whole message
    if (cp >= 0xd800 && cp <= 0xdfff) return { ok: false, error: `The name has a broken character (character ${chars}).` };
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
      return { ok: false, error: `The name contains a control character (character ${chars}); remove it.` };
    }
  }
  if (chars > TRAINEE_MAX_CHARS) {
    return { ok: false, error: `The name is ${chars} characters long; at most ${TRAINEE_MAX_CHARS} fit.` };
  }
  return { ok: true, name };
}

export function traineeMessage(name) {
  return JSON.stringify({ type: 'trainee', name });
}

// The stored name, or null when there is none (or it no longer passes the rules).
export function loadTraineeName(storage) {
  try {
    const v = storage?.getItem(TRAINEE_STORAGE_KEY);
    const c = typeof v === 'string' ? checkTraineeName(v) : null;
    return c?.ok ? c.name : null;
  } catch {
    return null;  // storage blocked (privacy settings)
  }
}

export function saveTraineeName(storage, name) {
  try {
    if (name) storage?.setItem(TRAINEE_STORAGE_KEY, name);
    else storage?.removeItem(TRAINEE_STORAGE_KEY);
  } catch {
    // the name still goes to this session; it is just not remembered
  }
}

// Which server errors answer a `trainee` message: 'refused' (bad_trainee, or a malformed
// message), 'unsupported' (a server that predates names), or null (not about the name).
export function traineeErrorKind(err) {
  if (!err) return null;
  if (err.code === 'bad_trainee') return 'refused';
  if (err.code === 'unknown_type' && /"trainee"/.test(err.message ?? '')) return 'unsupported';
  if (err.code === 'bad_message' && /^trainee:/.test(err.message ?? '')) return 'refused';
  return null;
}

// The name across connections. A session starts without a name, so the stored one goes out
// after every hello and whenever the trainee changes it. The server answers each `trainee`
// message in order (`trainee` or an error), so the queue of names in flight says which name
// an error refuses. A refused name is not kept: storage falls back to the name the server
// holds for this session (none after a fresh hello).
export function makeTraineeSync({ storage } = {}) {
  let stored = loadTraineeName(storage);
  let acknowledged = null;  // what this connection's session holds
  let inFlight = [];
  let connected = false;
  let unsupported = false;
  let error = null;         // {text, name, by: 'client' | 'server'}: the last refusal
  let sent = 0;

  function send(name) {
    inFlight.push(name);
    sent += 1;
    return traineeMessage(name);
  }

  function store(name) {
    stored = name;
    saveTraineeName(storage, name);
  }

  function state() {
    if (!stored) return 'none';
    if (!connected) return 'offline';
    if (unsupported) return 'unsupported';
    if (inFlight.length || acknowledged !== stored) return 'sending';
    return 'acknowledged';
  }

  return {
    // a new connection's hello: the message to send (the stored name), or null
    hello() {
      connected = true;
      acknowledged = null;
      inFlight = [];
      unsupported = false;
      return stored ? send(stored) : null;
    },
    disconnected() {
      connected = false;
      acknowledged = null;
      inFlight = [];
    },
    // the trainee entered a name: {ok: false, error} (nothing stored or sent), or
    // {ok: true, name, message} with the message to send now (null while not connected)
    submit(raw) {
      const c = checkTraineeName(raw);
      if (!c.ok) {
        error = { text: c.error, name: String(raw ?? ''), by: 'client' };
        return c;
      }
      error = null;
      store(c.name);
      return { ok: true, name: c.name, message: connected && !unsupported ? send(c.name) : null };
    },
    // the server's `trainee` answer: it holds `name` (trimmed its way)
    acknowledged(name) {
      const sentName = inFlight.shift();
      acknowledged = name;
      if (sentName !== undefined && sentName === stored && name !== stored) store(name);
    },
    // an error answering a `trainee` message (traineeErrorKind); returns the name refused
    refused(err) {
      const name = inFlight.shift() ?? null;
      if (traineeErrorKind(err) === 'unsupported') {
        unsupported = true;
        inFlight = [];
        return name;
      }
      error = { text: err.message || err.code, name, by: 'server' };
      if (name !== null && name === stored) store(acknowledged);
      return name;
    },
    clearError() { error = null; },
    view() {
      return { name: stored, acknowledged, state: state(), error, sent, inFlight: inFlight.length, connected };
    },
  };
}
