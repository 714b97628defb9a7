// Downloads of a result: CSV (RFC 4180: NULL an empty field, an empty string a quoted one, so
// the two stay apart), TSV (tabs and newlines in values escaped as \t \n, NULL as \N) and JSON
// (an array of objects, NULL as null, values as the server's text).

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

function csvField(value) {
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (text === '' || NEEDS_QUOTES.test(text)) return `"${text.replace(/"/g, '""')}"`;
  return text;
}

export function toCsv(schema, rows) {
  const lines = [schema.map((column) => csvField(column.name)).join(',')];
  for (const row of rows) lines.push(row.map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

const TSV_ESCAPES = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function tsvField(value) {
  if (value === null || value === undefined) return '\\N';
  return String(value).replace(/[\\\t\n\r]/g, (c) => TSV_ESCAPES[c]);
}

export function toTsv(schema, rows) {
  const lines = [schema.map((column) => tsvField(column.name)).join('\t')];
  for (const row of rows) lines.push(row.map(tsvField).join('\t'));
  return `${lines.join('\n')}\n`;
}

export function toJson(schema, rows) {
  const names = schema.map((column) => column.name);
  const parts = rows.map((row) => JSON.stringify(Object.fromEntries(
    names.map((name, i) => [name, row[i] ?? null]))));
  return `[${parts.join(',\n')}]\n`;
}

export const FORMATS = {
  csv: { make: toCsv, type: 'text/csv;charset=utf-8' },
  tsv: { make: toTsv, type: 'text/tab-separated-values;charset=utf-8' },
  json: { make: toJson, type: 'application/json' },
};

/** Offer `text` as a file download named `name` (a Blob URL: nothing leaves the page). */
export function download(name, text, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
