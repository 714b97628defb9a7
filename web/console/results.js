// How results read: which Databend types are numeric, counts and durations as text, and the
// status line of a statement (state, rows, rows scanned, elapsed time, a note).

const NUMERIC = /^(Nullable\()?(U?Int\d+|Float\d+|Decimal|Number)/;

/** Whether a Databend type name is numeric (Int32, Nullable(Float64), Decimal(10, 2)...). */
export function isNumericType(type) {
  return NUMERIC.test(type || '');
}

const numberFormat = new Intl.NumberFormat('en-US');

export function formatCount(n) {
  return numberFormat.format(n);
}

export function formatSeconds(ms) {
  return `${(ms / 1000).toFixed(ms < 10000 ? 2 : 1)} s`;
}

/** The status line; data-state and data-rows let scripts (and tests) follow it. */
export function showStatus(element, { state, rows, scanned, elapsedMs, note }) {
  const parts = [state, `${formatCount(rows)} ${rows === 1 ? 'row' : 'rows'}`];
  if (scanned) parts.push(`${formatCount(scanned)} scanned`);
  parts.push(formatSeconds(elapsedMs));
  if (note) parts.push(note);
  element.textContent = parts.join(' · ');
  element.dataset.state = state;
  element.dataset.rows = String(rows);
}
