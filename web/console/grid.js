// The result grid: every fetched row behind a virtual scroll (only the rows on screen are in
// the page, so a million rows scroll as fast as ten), sort by a header click, a quick filter,
// a selected cell moved with the keys, and a viewer for long text, JSON/VARIANT and arrays.
// A new result starts at its first row with nothing selected, sorted or filtered.

import { formatCount, isNumericType } from './results.js';

const ROW_HEIGHT = 26; // px, also in console.css (.grid-row)
const OVERSCAN = 10; // rows drawn above and below the visible ones
const SHOWN_CHARS = 300; // a cell shows this much of a long value; the viewer shows it all
const MIN_WIDTH = 64;
const MAX_WIDTH = 360;
const CHAR_WIDTH = 7.9; // px of one character of the grid's monospace font (13px)
const STRUCTURED = /^(Nullable\()?(Variant|Array|Map|Tuple|JSON|Object)/i;

function cellText(value) {
  return value === null || value === undefined ? 'NULL' : String(value);
}

/** An ascending comparison of row indices by `column` of `rows`; NULLs sort last. */
function comparator(rows, indices, column, numeric) {
  if (numeric) {
    const keys = new Float64Array(rows.length);
    for (const i of indices) {
      const v = rows[i][column];
      keys[i] = v === null ? NaN : Number(v);
    }
    return (a, b) => {
      const x = keys[a];
      const y = keys[b];
      if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) - Number.isNaN(y) || a - b;
      return x - y || a - b;
    };
  }
  return (a, b) => {
    const x = rows[a][column];
    const y = rows[b][column];
    if (x === null || y === null) return (x === null) - (y === null) || a - b;
    return x < y ? -1 : x > y ? 1 : a - b;
  };
}

export class Grid {
  constructor({ scroller, head, body, filter, count, viewer }) {
    this.scroller = scroller;
    this.head = head;
    this.body = body;
    this.filterInput = filter;
    this.count = count;
    this.viewer = viewer;
    this.schema = [];
    this.rows = [];
    this.view = null; // the shown row indices when sorted or filtered, else null (all, in order)
    this.sort = null; // {column, descending}
    this.filter = '';
    this.selected = null; // {row: position in the view, column}
    this.pool = [];
    this.frame = 0;
    this.widthsFrom = 0; // rows the column widths were measured on
    scroller.addEventListener('scroll', () => this.#schedule(), { passive: true });
    window.addEventListener('resize', () => this.#schedule());
    head.addEventListener('click', (event) => {
      const cell = event.target.closest('[data-col]');
      if (cell) this.sortBy(Number(cell.dataset.col));
    });
    body.addEventListener('click', (event) => this.#pick(event));
    body.addEventListener('dblclick', (event) => { if (this.#pick(event)) this.openViewer(); });
    scroller.addEventListener('keydown', (event) => this.#key(event));
    filter.addEventListener('input', () => this.setFilter(filter.value));
  }

  /** Show `schema` and `rows` (the array keeps growing while the query runs) from the top. */
  show(schema, rows) {
    this.schema = schema;
    this.rows = rows;
    this.view = null;
    this.sort = null;
    this.filter = '';
    this.filterInput.value = '';
    this.selected = null;
    this.widthsFrom = 0;
    this.body.replaceChildren();
    this.pool = [];
    this.#drawHead();
    this.scroller.scrollTop = 0;
    this.scroller.scrollLeft = 0;
    this.scroller.hidden = schema.length === 0;
    this.filterInput.closest('.grid-bar').hidden = schema.length === 0;
    this.rowsAdded();
  }

  /** More rows arrived (or the schema did): draw what is on screen again. */
  rowsAdded() {
    if (this.rows.length && this.widthsFrom < Math.min(this.rows.length, 200)) this.#measure();
    if (this.sort || this.filter) this.#recompute();
    this.#schedule();
  }

  get shownCount() {
    return this.view ? this.view.length : this.rows.length;
  }

  /** The shown rows in order (sorted and filtered as on screen). */
  shownRows() {
    return this.view ? Array.from(this.view, (i) => this.rows[i]) : this.rows;
  }

  sortBy(column) {
    const current = this.sort && this.sort.column === column ? this.sort : null;
    if (!current) this.sort = { column, descending: false };
    else if (!current.descending) this.sort = { column, descending: true };
    else this.sort = null;
    this.#recompute();
    this.#drawHead();
    this.selected = null;
    this.scroller.scrollTop = 0;
    this.#schedule();
  }

  setFilter(text) {
    this.filter = text.trim().toLowerCase();
    this.#recompute();
    this.selected = null;
    this.scroller.scrollTop = 0;
    this.#schedule();
  }

  #recompute() {
    const { rows, sort, filter } = this;
    if (!sort && !filter) {
      this.view = null;
      return;
    }
    let indices;
    if (filter) {
      const kept = [];
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i];
        for (let c = 0; c < row.length; c++) {
          if (cellText(row[c]).toLowerCase().includes(filter)) {
            kept.push(i);
            break;
          }
        }
      }
      indices = Uint32Array.from(kept);
    } else {
      indices = new Uint32Array(rows.length);
      for (let i = 0; i < indices.length; i++) indices[i] = i;
    }
    if (sort) {
      const compare = comparator(rows, indices, sort.column,
        isNumericType(this.schema[sort.column].type));
      indices.sort(sort.descending ? (a, b) => compare(b, a) : compare);
    }
    this.view = indices;
  }

  /** Column widths from the header and the first rows (so they do not jump on scroll). */
  #measure() {
    const sample = this.rows.slice(0, 200);
    this.widthsFrom = sample.length;
    const widths = this.schema.map((field, c) => {
      let chars = Math.max(field.name.length, field.type.length) + 2;
      for (const row of sample) chars = Math.max(chars, Math.min(cellText(row[c]).length, 60));
      return Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, chars * CHAR_WIDTH + 20)));
    });
    const gutter = Math.max(48, String(this.rows.length).length * CHAR_WIDTH + 28);
    this.scroller.style.setProperty('--grid-columns',
      [gutter, ...widths].map((w) => `${w}px`).join(' '));
    // the body's width is given, so its layout is contained (console.css): a scroll lays out
    // the rows drawn, nothing else
    this.body.style.width = `${widths.reduce((sum, w) => sum + w, gutter)}px`;
  }

  #drawHead() {
    if (!this.rows.length) this.#measure();
    const gutter = document.createElement('div');
    gutter.className = 'grid-cell row-number';
    gutter.textContent = '#';
    const cells = this.schema.map((field, c) => {
      const cell = document.createElement('div');
      cell.className = 'grid-cell';
      cell.dataset.col = String(c);
      cell.setAttribute('role', 'columnheader');
      cell.title = 'Click to sort';
      if (isNumericType(field.type)) cell.classList.add('numeric');
      const name = document.createElement('span');
      name.className = 'column-name';
      name.textContent = field.name;
      const type = document.createElement('span');
      type.className = 'column-type';
      type.textContent = field.type;
      cell.append(name, type);
      if (this.sort && this.sort.column === c) {
        cell.setAttribute('aria-sort', this.sort.descending ? 'descending' : 'ascending');
        name.dataset.sort = this.sort.descending ? '▼' : '▲';
      }
      return cell;
    });
    this.head.replaceChildren(gutter, ...cells);
    this.headHeight = 0; // measured at the next draw
  }

  #schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.#draw();
    });
  }

  #draw() {
    const total = this.shownCount;
    this.body.style.height = `${total * ROW_HEIGHT}px`;
    if (!this.headHeight) this.headHeight = this.head.offsetHeight;
    const top = Math.max(0, this.scroller.scrollTop - this.headHeight);
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(total,
      Math.ceil((top + this.scroller.clientHeight) / ROW_HEIGHT) + OVERSCAN);
    const wanted = Math.max(0, last - first);
    while (this.pool.length < wanted) this.pool.push(this.#newRow());
    while (this.pool.length > wanted) this.pool.pop().remove();
    const numeric = this.schema.map((field) => isNumericType(field.type));
    for (let k = 0; k < wanted; k++) this.#fillRow(this.pool[k], first + k, numeric);
    const filtered = this.filter ? `${formatCount(total)} of ` : '';
    this.count.textContent = `${filtered}${formatCount(this.rows.length)} `
      + `${this.rows.length === 1 ? 'row' : 'rows'}`;
    this.count.dataset.shown = String(total);
  }

  #newRow() {
    const row = document.createElement('div');
    row.className = 'grid-row';
    row.setAttribute('role', 'row');
    for (let c = 0; c <= this.schema.length; c++) {
      const cell = document.createElement('div');
      cell.className = c === 0 ? 'grid-cell row-number' : 'grid-cell';
      row.append(cell);
    }
    this.body.append(row);
    return row;
  }

  #fillRow(element, position, numeric) {
    const index = this.view ? this.view[position] : position;
    const row = this.rows[index];
    element.style.transform = `translateY(${position * ROW_HEIGHT}px)`;
    element.dataset.row = String(position);
    const cells = element.children;
    cells[0].textContent = String(index + 1);
    for (let c = 0; c < this.schema.length; c++) {
      const cell = cells[c + 1];
      const value = row[c];
      let text = cellText(value);
      if (text.length > SHOWN_CHARS) text = `${text.slice(0, SHOWN_CHARS)}…`;
      if (cell.textContent !== text) cell.textContent = text;
      const selected = this.selected !== null && this.selected.row === position
        && this.selected.column === c;
      cell.className = `grid-cell${value === null ? ' null' : ''}${numeric[c] ? ' numeric' : ''}`
        + `${selected ? ' selected' : ''}`;
    }
  }

  /** Select the cell an event happened on; whether there was one. */
  #pick(event) {
    const cell = event.target.closest('.grid-cell');
    const row = event.target.closest('.grid-row');
    if (!cell || !row || cell.classList.contains('row-number')) return false;
    const column = Array.prototype.indexOf.call(row.children, cell) - 1;
    this.select(Number(row.dataset.row), column);
    return true;
  }

  select(row, column) {
    if (!this.shownCount || !this.schema.length) return;
    this.selected = {
      row: Math.max(0, Math.min(this.shownCount - 1, row)),
      column: Math.max(0, Math.min(this.schema.length - 1, column)),
    };
    const y = this.selected.row * ROW_HEIGHT;
    const visible = this.scroller.clientHeight - (this.headHeight || this.head.offsetHeight);
    if (y < this.scroller.scrollTop) this.scroller.scrollTop = y;
    else if (y + ROW_HEIGHT > this.scroller.scrollTop + visible) {
      this.scroller.scrollTop = y + ROW_HEIGHT - visible;
    }
    this.scroller.focus({ preventScroll: true });
    this.#schedule();
  }

  #key(event) {
    if (!this.selected) return;
    const { row, column } = this.selected;
    const page = Math.max(1, Math.floor(this.scroller.clientHeight / ROW_HEIGHT) - 1);
    const moves = {
      ArrowDown: [row + 1, column], ArrowUp: [row - 1, column],
      ArrowLeft: [row, column - 1], ArrowRight: [row, column + 1],
      PageDown: [row + page, column], PageUp: [row - page, column],
      Home: [0, column], End: [this.shownCount - 1, column],
    };
    if (moves[event.key]) {
      event.preventDefault();
      this.select(...moves[event.key]);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      this.openViewer();
    }
  }

  /** The selected cell's whole value in the viewer: JSON and arrays pretty-printed. */
  openViewer() {
    if (!this.selected) return;
    const { row, column } = this.selected;
    const index = this.view ? this.view[row] : row;
    const value = this.rows[index][column];
    const field = this.schema[column];
    let text = cellText(value);
    let pretty = false;
    if (value !== null && (STRUCTURED.test(field.type) || /^\s*[[{]/.test(text))) {
      try {
        text = JSON.stringify(JSON.parse(text), null, 2);
        pretty = true;
      } catch (_) { /* not JSON (a tuple, a plain string): shown as it is */ }
    }
    const { dialog, title, body } = this.viewer;
    title.textContent = `${field.name} (${field.type}), row ${index + 1}`
      + `${pretty ? ', formatted' : ''} · ${formatCount(cellText(value).length)} characters`;
    body.textContent = text;
    body.classList.toggle('null', value === null);
    this.viewer.raw = cellText(value); // what Copy copies
    if (!dialog.open) dialog.showModal();
  }
}
