// CSV of a result (RFC 4180): a header of column names, then the rows; NULL is an empty field,
// an empty string a quoted one (""), so the two stay apart.

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

function field(value) {
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (text === '' || NEEDS_QUOTES.test(text)) return `"${text.replace(/"/g, '""')}"`;
  return text;
}

export function toCsv(schema, rows) {
  const lines = [schema.map((column) => field(column.name)).join(',')];
  for (const row of rows) lines.push(row.map(field).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

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
