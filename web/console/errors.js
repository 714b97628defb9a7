// Where in the SQL an error points. Syntax errors (code 1005) carry their position as
// Databend writes it: a "--> SQL:<line>:<column>" header (1-based, in characters) and a line of
// carets under the offending text. Errors naming a column, table or function carry no position:
// the first whole-word use of that name in the SQL is shown instead.

const POSITION = /-->\s*SQL:(\d+):(\d+)/;
const CARETS = /^ *\| *(\^+)/m;
const NAMED = [
  /column (\S+) doesn't exist/,
  /Unknown table `[^`]*`\.`([^`]+)`/,
  /Unknown database [`']?([^`'\s]+)/i,
  /no function matches the given name: '([^']+)'/,
];

/** UTF-16 offset in `text` of the `column`-th (1-based) character of line `line`. */
function offsetOf(text, line, column) {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const end = text.indexOf('\n', offset);
    if (end < 0) return text.length;
    offset = end + 1;
  }
  // columns count Unicode characters (code points), JavaScript strings count UTF-16 units
  let characters = 1;
  while (characters < column && offset < text.length && text[offset] !== '\n') {
    const code = text.codePointAt(offset);
    offset += code > 0xffff ? 2 : 1;
    characters += 1;
  }
  return offset;
}

/** The UTF-16 length of `count` characters of `text` from `offset`, within the line. */
function spanOf(text, offset, count) {
  let end = offset;
  for (let i = 0; i < count && end < text.length && text[end] !== '\n'; i++) {
    end += text.codePointAt(end) > 0xffff ? 2 : 1;
  }
  return end - offset;
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `{start, end, line, column, exact}` of the text of `sql` an error message points at, or
 * null. `exact` is false when the place was found by the name the message quotes.
 */
export function errorRange(sql, message) {
  if (!message) return null;
  const position = POSITION.exec(message);
  if (position) {
    const line = Number(position[1]);
    const column = Number(position[2]);
    const start = offsetOf(sql, line, column);
    const carets = CARETS.exec(message.slice(position.index));
    const width = Math.max(1, spanOf(sql, start, carets ? carets[1].length : 1));
    return { start, end: Math.min(sql.length, start + width), line, column, exact: true };
  }
  for (const pattern of NAMED) {
    const named = pattern.exec(message);
    if (!named) continue;
    const word = new RegExp(`(^|[^\\w$])(${escapeRegExp(named[1])})(?![\\w$])`, 'i');
    const found = word.exec(sql);
    if (!found) return null;
    const start = found.index + found[1].length;
    const before = sql.slice(0, start);
    const line = before.split('\n').length;
    const column = Array.from(before.slice(before.lastIndexOf('\n') + 1)).length + 1;
    return { start, end: start + found[2].length, line, column, exact: false };
  }
  return null;
}
