// Query history: the SQL of the last statements run (text only: no results, no credentials),
// newest first, kept in localStorage; clicking one puts it back into the editor.

const HISTORY_KEY = 'queryhttp.console.history';
const MAX_ENTRIES = 50;

export class History {
  constructor(list, { onPick }) {
    this.list = list;
    this.onPick = onPick;
    this.entries = load();
    this.#draw();
  }

  add(sql) {
    const text = sql.trim();
    if (!text) return;
    this.entries = [text, ...this.entries.filter((entry) => entry !== text)].slice(0, MAX_ENTRIES);
    save(this.entries);
    this.#draw();
  }

  clear() {
    this.entries = [];
    save(this.entries);
    this.#draw();
  }

  #draw() {
    const items = this.entries.map((sql) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'history-entry';
      button.title = sql;
      button.textContent = sql.length > 200 ? `${sql.slice(0, 200)}…` : sql;
      button.addEventListener('click', () => this.onPick(sql));
      item.append(button);
      return item;
    });
    this.list.replaceChildren(...items);
  }
}

function load() {
  try {
    const entries = JSON.parse(localStorage.getItem(HISTORY_KEY) || '[]');
    return Array.isArray(entries) ? entries.filter((e) => typeof e === 'string') : [];
  } catch (_) {
    return [];
  }
}

function save(entries) {
  try {
    localStorage.setItem(HISTORY_KEY, JSON.stringify(entries));
  } catch (_) { /* storage full or disabled */ }
}
