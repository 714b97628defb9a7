// The Databend query HTTP protocol, spoken as any client speaks it (and so an example of it):
// POST /v1/query starts a statement and answers its first page; each answer's next_uri is the
// next page (long-polled), then /final, then null; kill_uri stops a running statement; the
// answer's session (database, settings) is sent back with the next statement, so USE and SET
// last across statements. Credentials go in an Authorization header on every request and are
// kept by the caller in memory only.

const JSON_TYPE = 'application/json';

/** A non-200 answer of the server (401 wrong credentials, 404 unknown query, ...). */
export class HttpError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** `Basic base64(user:password)`, UTF-8 safe (btoa alone takes Latin-1 only). */
export function basicAuthorization(user, password) {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** 32 random hex digits: the X-DATABEND-QUERY-ID a client may choose for its query. */
export function newQueryId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function readError(response) {
  const text = await response.text();
  try {
    const body = JSON.parse(text);
    if (body && body.error) return new HttpError(response.status, body.error.code, body.error.message);
  } catch (_) { /* a text/plain reason */ }
  return new HttpError(response.status, null, text || response.statusText);
}

/**
 * [{name, type}] of an answer's schema: the databend format's list as it is, or the spec
 * format's {fields: [{name, data_type: {type}, nullable}]} (a server run with
 * --wire_format spec answers that way whatever the headers).
 */
export function columnsOf(schema) {
  if (!schema) return [];
  if (Array.isArray(schema)) return schema;
  return (schema.fields || []).map((field) => {
    const type = field.data_type ? field.data_type.type : '';
    return { name: field.name, type: field.nullable ? `Nullable(${type})` : type };
  });
}

/** A user's connection: their credentials (in memory) and the session the server echoes. */
export class Connection {
  #authorization;

  constructor(user, password) {
    this.user = user;
    this.#authorization = basicAuthorization(user, password);
    this.session = null; // the last session the server answered (database, settings, ...)
  }

  /** One request with the credentials; the parsed JSON answer (or null for an empty body). */
  async request(method, uri, body, queryId) {
    const headers = { Authorization: this.#authorization, Accept: JSON_TYPE };
    // any X-DATABEND-* header asks for the databend format of the answers
    headers['X-DATABEND-QUERY-ID'] = queryId || newQueryId();
    if (body !== undefined) headers['Content-Type'] = JSON_TYPE;
    const response = await fetch(uri, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit', // never the browser's own login popup or cached credentials
      cache: 'no-store',
      redirect: 'error',
    });
    if (!response.ok) throw await readError(response);
    const text = await response.text();
    return text ? JSON.parse(text) : null;
  }

  /** Checks the credentials (POST /v1/session/login); throws HttpError 401 when wrong. */
  async login() {
    return this.request('POST', '/v1/session/login', {});
  }

  /** The statements of a script as the server's grammar cuts them (POST /v1/console/split). */
  async split(sql) {
    return this.request('POST', '/v1/console/split', { sql });
  }

  async logout() {
    try {
      await this.request('POST', '/v1/session/logout', {});
    } catch (_) { /* nothing to undo */ }
  }

  /** A statement to run with this connection's session (`keepSession`: adopt the session it
   * answers, as the editor's statements do; the schema browser's do not). */
  statement(sql, options = {}) {
    return new Statement(this, sql, options);
  }
}

/**
 * One statement followed to its end. `onAnswer(statement, answer)` is called for every
 * answer (rows arrive page by page in `answer.data`). `run()` resolves once next_uri is null.
 */
export class Statement {
  constructor(connection, sql, { keepSession = false, onAnswer = null, waitSecs = 1,
    maxRows = Infinity, params = null } = {}) {
    this.connection = connection;
    this.sql = sql;
    this.keepSession = keepSession;
    this.onAnswer = onAnswer;
    this.waitSecs = waitSecs;
    this.maxRows = maxRows; // stop reading (and close the query) past this many rows
    this.params = params; // values of the SQL's :name placeholders, bound by the server
    this.queryId = newQueryId();
    this.schema = [];
    this.rowCount = 0;
    this.state = 'Starting';
    this.error = null;
    this.stats = null;
    this.affect = null;
    this.session = connection.session;
    this.truncated = false; // rows past maxRows were left unread
    this.closedEarly = false; // and the query was closed while it still ran
    this.killUri = null;
    this.finalUri = null;
    this.cancelRequested = false;
    this.killSent = false;
  }

  async run() {
    const body = { sql: this.sql, pagination: { wait_time_secs: this.waitSecs } };
    if (this.connection.session) body.session = this.connection.session;
    if (this.params && Object.keys(this.params).length) body.params = this.params;
    let answer = await this.connection.request('POST', '/v1/query', body, this.queryId);
    for (;;) {
      this.#absorb(answer);
      if (this.cancelRequested) await this.#kill();
      let next = answer.next_uri;
      if (next && this.truncated && next !== answer.final_uri) {
        next = answer.final_uri; // enough rows kept: close the query instead of reading on
        this.closedEarly = this.state === 'Running';
      }
      if (!next) break;
      try {
        answer = await this.connection.request('GET', next, undefined, this.queryId);
      } catch (error) {
        // a killed query's later pages answer 400 "closed for canceled": its final_uri
        // still tells how it ended (Failed, 1043 canceled by client)
        if (!this.killSent || error.status !== 400) throw error;
        if (!this.finalUri || next === this.finalUri) break;
        answer = await this.connection.request('GET', this.finalUri, undefined, this.queryId);
      }
    }
    if (this.killSent && this.state === 'Running') this.state = 'Failed';
    if (this.closedEarly && !this.killSent && this.error && this.error.code === 1043) {
      // the query was closed on purpose at the row cap: the rows kept are the answer
      this.state = 'Succeeded';
      this.error = null;
    }
    return this;
  }

  /** Stop the statement: kill_uri at once when known, else as soon as the POST answers. */
  cancel() {
    this.cancelRequested = true;
    if (this.killUri) this.#kill();
  }

  async #kill() {
    if (this.killSent || !this.killUri || this.state !== 'Running') return;
    this.killSent = true;
    try {
      await this.connection.request('POST', this.killUri, undefined, this.queryId);
    } catch (_) { /* the query ended meanwhile */ }
  }

  #absorb(answer) {
    if (!answer) return;
    const schema = columnsOf(answer.schema);
    if (schema.length) this.schema = schema;
    if (answer.state) this.state = answer.state;
    if (answer.error) this.error = answer.error;
    if (answer.stats) this.stats = answer.stats;
    if (answer.affect) this.affect = answer.affect;
    if (answer.kill_uri) this.killUri = answer.kill_uri;
    if (answer.final_uri) this.finalUri = answer.final_uri;
    if (answer.session) {
      // the POST answer always carries the session, later pages only when it changed
      this.session = answer.session;
      if (this.keepSession) this.connection.session = answer.session;
    }
    let rows = answer.data || [];
    if (this.rowCount + rows.length >= this.maxRows && (rows.length || answer.next_uri)) {
      // the rows past maxRows are not kept (and the query is closed: run())
      const more = answer.next_uri && answer.next_uri !== answer.final_uri;
      if (this.rowCount + rows.length > this.maxRows || more) this.truncated = true;
      rows = rows.slice(0, Math.max(0, this.maxRows - this.rowCount));
    }
    this.rowCount += rows.length;
    if (this.onAnswer) this.onAnswer(this, answer, rows);
  }
}
