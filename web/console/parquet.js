// The Parquet download, made by the server in SQL (no endpoint of its own): the shown query is
// run again into one Parquet file of the user's stage (COPY INTO @~/<folder>/ FROM (query)
// FILE_FORMAT = (TYPE = PARQUET) SINGLE = TRUE), the file is fetched through a short-lived
// PRESIGN DOWNLOAD URL of this server (same origin: the page's connect-src 'self' allows it)
// and the folder is removed again, whatever happened. Offered only for a query (SELECT, WITH,
// a parenthesized query: running it again changes nothing) and only when the server writes
// Parquet, which needs pyarrow: without it the probe's COPY answers error 1002.

// A split statement starts at its first token; the COPY grammar takes only a query inside
// FROM ( ... ), so anything else would fail there, never run.
const QUERY = /^(select|with|\()/i;
const PRESIGN_EXPIRE_SECS = 60;
// enough for a statement's answer to arrive in a few long polls
const WAIT_SECS = 5;

/** Whether `sql` (one statement, as split) is a query the Parquet download may run again. */
export function isQuery(sql) {
  return QUERY.test(sql);
}

/** A folder of the user's stage that no one else uses: console-export-<32 hex digits>. */
function exportFolder() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `console-export-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** An error of one of the export's statements (code and message as the server gave them). */
export class ExportError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** Run `sql` to its end with the connection's session (not adopting the one it answers);
 * its rows, or ExportError. */
async function runToEnd(connection, sql, params = null) {
  const rows = [];
  const statement = connection.statement(sql, {
    waitSecs: WAIT_SECS, params, onAnswer: (_, __, page) => { for (const row of page) rows.push(row); },
  });
  try {
    await statement.run();
  } catch (error) {
    throw new ExportError(error.code ?? error.status ?? '', error.message);
  }
  if (statement.state !== 'Succeeded') {
    const error = statement.error || {};
    throw new ExportError(error.code ?? '', error.message || statement.state);
  }
  return rows;
}

/** Whether the server writes Parquet: a COPY of no rows (it writes no file) succeeds. */
export async function canWriteParquet(connection) {
  try {
    await runToEnd(connection, `COPY INTO @~/${exportFolder()}/ FROM (SELECT 1 LIMIT 0) `
      + 'FILE_FORMAT = (TYPE = PARQUET) SINGLE = TRUE');
    return true;
  } catch (_) {
    return false; // 1002 without pyarrow (or a server that cannot unload at all)
  }
}

/** The Parquet file (a Blob) of the query `sql` run again with `params`; the stage is left
 * as it was. */
export async function exportParquet(connection, sql, params) {
  const folder = exportFolder();
  try {
    await runToEnd(connection, `COPY INTO @~/${folder}/ FROM (${sql}) `
      + 'FILE_FORMAT = (TYPE = PARQUET) SINGLE = TRUE', params);
    const files = await runToEnd(connection, `LIST @~/${folder}/`);
    if (!files.length) throw new ExportError('', 'the query answered no rows: no Parquet file');
    const presigned = await runToEnd(connection,
      `PRESIGN DOWNLOAD @~/${files[0][0]} EXPIRE = ${PRESIGN_EXPIRE_SECS}`);
    // the URL names the host the server was reached at; fetch its path from this page's own
    // origin (the same server) so the CSP's connect-src 'self' holds behind any proxy
    const url = new URL(presigned[0][2]);
    const response = await fetch(url.pathname + url.search, {
      credentials: 'omit', cache: 'no-store', redirect: 'error',
    });
    if (!response.ok) throw new ExportError(response.status, await response.text());
    return await response.blob();
  } finally {
    try {
      await runToEnd(connection, `REMOVE @~/${folder}/`);
    } catch (_) { /* nothing was written, or the connection is gone */ }
  }
}
