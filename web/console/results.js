// The result of the running statement: its columns (names and Databend types), its rows as
// pages arrive (the first screenful at once, more on demand), NULL drawn apart from text, and
// a status line with the state, rows, rows scanned and elapsed time.

const ROWS_PER_SCREEN = 1000;
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

export class ResultView {
  constructor({ table, status, more, moreText, moreButton }) {
    this.table = table;
    this.status = status;
    this.more = more;
    this.moreText = moreText;
    this.schema = [];
    this.rows = [];
    this.rendered = 0;
    this.limit = ROWS_PER_SCREEN;
    this.body = null;
    moreButton.addEventListener('click', () => {
      this.limit += ROWS_PER_SCREEN;
      this.#renderRows();
    });
  }

  clear() {
    this.schema = [];
    this.rows = [];
    this.rendered = 0;
    this.limit = ROWS_PER_SCREEN;
    this.body = null;
    this.table.replaceChildren();
    this.more.hidden = true;
  }

  /** Rows of one answer (and the schema, which comes with the first answer). */
  add(schema, rows) {
    if (schema.length && this.body === null) {
      this.schema = schema;
      this.#renderHeader();
    }
    for (const row of rows) this.rows.push(row);
    this.#renderRows();
  }

  #renderHeader() {
    const head = document.createElement('thead');
    const line = document.createElement('tr');
    for (const field of this.schema) {
      const cell = document.createElement('th');
      const name = document.createElement('span');
      name.className = 'column-name';
      name.textContent = field.name;
      const type = document.createElement('span');
      type.className = 'column-type';
      type.textContent = field.type;
      cell.append(name, type);
      if (isNumericType(field.type)) cell.classList.add('numeric');
      line.append(cell);
    }
    head.append(line);
    this.body = document.createElement('tbody');
    this.table.replaceChildren(head, this.body);
  }

  #renderRows() {
    if (this.body === null) return;
    const numeric = this.schema.map((field) => isNumericType(field.type));
    const end = Math.min(this.rows.length, this.limit);
    const fragment = document.createDocumentFragment();
    for (let i = this.rendered; i < end; i++) {
      const line = document.createElement('tr');
      this.rows[i].forEach((value, column) => {
        const cell = document.createElement('td');
        if (value === null) {
          cell.className = 'null';
          cell.textContent = 'NULL';
        } else {
          cell.textContent = value;
          if (numeric[column]) cell.className = 'numeric';
        }
        line.append(cell);
      });
      fragment.append(line);
    }
    this.body.append(fragment);
    this.rendered = Math.max(this.rendered, end);
    const hidden = this.rows.length - this.rendered;
    this.more.hidden = hidden <= 0;
    this.moreText.textContent = `Showing ${formatCount(this.rendered)} of `
      + `${formatCount(this.rows.length)} rows received.`;
  }

  /** The status line; data-state and data-rows let scripts (and tests) follow it. */
  showStatus({ state, rows, scanned, elapsedMs, note }) {
    const parts = [state, `${formatCount(rows)} ${rows === 1 ? 'row' : 'rows'}`];
    if (scanned) parts.push(`${formatCount(scanned)} scanned`);
    parts.push(formatSeconds(elapsedMs));
    if (note) parts.push(note);
    this.status.textContent = parts.join(' · ');
    this.status.dataset.state = state;
    this.status.dataset.rows = String(rows);
  }
}
