// Lists of SQL in the sidebar, kept in localStorage: the history (the last statements run,
// newest first) and the saved queries (named by the user). Clicking an entry opens it without
// touching the draft in the editor (the console opens it in a new tab).

import { KEYS, load, save } from './store.js';

const MAX_HISTORY = 50;
const MAX_SAVED = 200;

function entryButton(text, title, onClick) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'list-entry';
  button.title = title;
  button.textContent = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  button.addEventListener('click', onClick);
  return button;
}

export class History {
  constructor(list, { onOpen }) {
    this.list = list;
    this.onOpen = onOpen;
    const stored = load(KEYS.history, []);
    this.entries = Array.isArray(stored) ? stored.filter((e) => typeof e === 'string') : [];
    this.#draw();
  }

  add(sql) {
    const text = sql.trim();
    if (!text) return;
    this.entries = [text, ...this.entries.filter((entry) => entry !== text)].slice(0, MAX_HISTORY);
    save(KEYS.history, this.entries);
    this.#draw();
  }

  clear() {
    this.entries = [];
    save(KEYS.history, this.entries);
    this.#draw();
  }

  #draw() {
    this.list.replaceChildren(...this.entries.map((sql) => {
      const item = document.createElement('li');
      item.append(entryButton(sql, `${sql}\n\n(opens in a new tab)`, () => this.onOpen(sql)));
      return item;
    }));
  }
}

export class SavedQueries {
  constructor(list, { onOpen }) {
    this.list = list;
    this.onOpen = onOpen;
    const stored = load(KEYS.saved, []);
    this.entries = Array.isArray(stored) ? stored.filter((e) => e && typeof e.name === 'string'
      && typeof e.sql === 'string') : [];
    this.#draw();
  }

  /** Save `sql` as `name` (replacing a query of the same name). */
  add(name, sql) {
    const entry = { name: name.trim() || 'Untitled', sql };
    this.entries = [entry, ...this.entries.filter((e) => e.name !== entry.name)]
      .slice(0, MAX_SAVED);
    save(KEYS.saved, this.entries);
    this.#draw();
  }

  remove(name) {
    this.entries = this.entries.filter((e) => e.name !== name);
    save(KEYS.saved, this.entries);
    this.#draw();
  }

  #draw() {
    this.list.replaceChildren(...this.entries.map(({ name, sql }) => {
      const item = document.createElement('li');
      item.dataset.name = name;
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'small remove';
      remove.title = `Delete the saved query ${name}`;
      remove.textContent = '×';
      remove.addEventListener('click', () => this.remove(name));
      item.append(entryButton(name, `${sql}\n\n(opens in a new tab)`, () => this.onOpen(sql, name)),
        remove);
      return item;
    }));
  }
}

/** A button that asks for a second click (within 3 s) before it acts. */
export function confirmingButton(button, action) {
  const label = button.textContent;
  let armed = null;
  button.addEventListener('click', () => {
    if (armed) {
      clearTimeout(armed);
      armed = null;
      button.textContent = label;
      action();
      return;
    }
    button.textContent = 'Sure?';
    armed = setTimeout(() => { armed = null; button.textContent = label; }, 3000);
  });
}
