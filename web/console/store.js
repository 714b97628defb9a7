// What the console keeps in the browser's localStorage: the tabs' SQL, the history, the saved
// queries and the theme. Never credentials, never results. Every write goes through here.

export const KEYS = Object.freeze({
  tabs: 'queryhttp.console.tabs',
  history: 'queryhttp.console.history',
  saved: 'queryhttp.console.saved',
  theme: 'queryhttp.console.theme',
  rowCap: 'queryhttp.console.row-cap',
  legacyText: 'queryhttp.console.sql', // the single editor's text of earlier releases
});

/** The JSON value stored under `key`, or `fallback` (nothing stored, storage disabled). */
export function load(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch (_) {
    return fallback;
  }
}

/** The plain text stored under `key` (the legacy editor text), or null. */
export function loadText(key) {
  try {
    return localStorage.getItem(key);
  } catch (_) {
    return null;
  }
}

export function save(key, value) {
  if (!Object.values(KEYS).includes(key)) throw new Error(`not a console storage key: ${key}`);
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (_) { /* storage full or disabled: it lives in the page only */ }
}
