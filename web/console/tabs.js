// Tabs: each has its own SQL (an editor state with its undo history), parameter values and
// results. Their SQL, names and parameters are kept in localStorage (results are not).

import { KEYS, load, loadText, save } from './store.js';

const MAX_TABS = 30;
const DEFAULT_SQL = 'SELECT number, number * number AS square\nFROM numbers(10)';

function titleOf(tab, text) {
  if (tab.name) return tab.name;
  const line = text.split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('--'));
  if (!line) return 'New query';
  return line.length > 24 ? `${line.slice(0, 23)}…` : line;
}

export class Tabs {
  /** `onSwitch(tab)` after another tab became the current one. */
  constructor(bar, editor, { onSwitch }) {
    this.bar = bar;
    this.editor = editor;
    this.onSwitch = onSwitch;
    this.nextId = 1;
    this.saveTimer = null;
    const stored = load(KEYS.tabs, null);
    const entries = stored && Array.isArray(stored.tabs) && stored.tabs.length ? stored.tabs
      : [{ sql: loadText(KEYS.legacyText) ?? DEFAULT_SQL }];
    this.tabs = entries.slice(0, MAX_TABS).map((entry) => this.#make(String(entry.sql ?? ''),
      entry.name, entry.params));
    this.active = Math.min(Math.max(0, Number(stored && stored.active) || 0),
      this.tabs.length - 1);
    this.editor.setState(this.current.state);
    this.draw();
    window.addEventListener('pagehide', () => this.#saveNow()); // a reload keeps the last keys
  }

  #make(sql, name = '', params = {}) {
    return { id: this.nextId++, name: name || '', state: this.editor.newState(sql),
      params: params && typeof params === 'object' ? { ...params } : {}, runs: [], shown: 0 };
  }

  get current() {
    return this.tabs[this.active];
  }

  /** Open `sql` in a new tab (named `name`) and make it the current one. */
  open(sql, name = '') {
    if (this.tabs.length >= MAX_TABS) this.tabs.splice(0, 1);
    this.#keepEditorState();
    this.tabs.push(this.#make(sql, name));
    this.#activate(this.tabs.length - 1);
  }

  /** The tab with exactly this SQL, made current; or a new tab for it. */
  openOrFind(sql) {
    const index = this.tabs.findIndex((tab, i) => (i === this.active
      ? this.editor.value : tab.state.doc.toString()) === sql);
    if (index >= 0) this.select(index);
    else this.open(sql);
  }

  select(index) {
    if (index === this.active || index < 0 || index >= this.tabs.length) return;
    this.#keepEditorState();
    this.#activate(index);
  }

  close(index) {
    this.#keepEditorState();
    this.tabs.splice(index, 1);
    if (!this.tabs.length) this.tabs.push(this.#make(''));
    const next = index < this.active || this.active >= this.tabs.length
      ? Math.max(0, this.active - 1) : this.active;
    this.#activate(Math.min(next, this.tabs.length - 1), true);
  }

  #keepEditorState() {
    this.current.state = this.editor.state;
  }

  #activate(index, force = false) {
    const changed = force || index !== this.active;
    this.active = index;
    this.editor.setState(this.current.state);
    this.draw();
    this.persist();
    if (changed) this.onSwitch(this.current);
  }

  /** The current tab's text changed (or its parameters): redraw titles and store, soon. */
  changed() {
    this.#keepEditorState();
    this.draw();
    this.persist();
  }

  persist() {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.#saveNow(), 300);
  }

  #saveNow() {
    clearTimeout(this.saveTimer);
    this.#keepEditorState();
    save(KEYS.tabs, { active: this.active, tabs: this.tabs.map((tab) => ({
      sql: tab.state.doc.toString(), name: tab.name, params: tab.params })) });
  }

  draw() {
    const buttons = this.tabs.map((tab, index) => {
      const item = document.createElement('div');
      item.className = 'tab';
      item.setAttribute('role', 'presentation');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'tab-title';
      button.setAttribute('role', 'tab');
      button.setAttribute('aria-selected', String(index === this.active));
      const text = index === this.active ? this.editor.value : tab.state.doc.toString();
      button.textContent = titleOf(tab, text);
      button.title = text.slice(0, 500);
      button.addEventListener('click', () => this.select(index));
      const close = document.createElement('button');
      close.type = 'button';
      close.className = 'tab-close';
      close.title = 'Close this tab';
      close.setAttribute('aria-label', `Close ${button.textContent}`);
      close.textContent = '×';
      close.addEventListener('click', () => this.close(index));
      item.append(button, close);
      return item;
    });
    const add = document.createElement('button');
    add.type = 'button';
    add.id = 'tab-new';
    add.className = 'tab-new';
    add.title = 'New tab';
    add.setAttribute('aria-label', 'New tab');
    add.textContent = '+';
    add.addEventListener('click', () => { this.open(''); this.editor.focus(); });
    this.bar.replaceChildren(...buttons, add);
  }
}
