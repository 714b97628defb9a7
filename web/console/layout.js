// The page's frame: the colour theme (the system's preference, or the user's choice kept in
// localStorage) and the sidebar, which a button shows or hides (hidden at first on a narrow
// screen, where it lays over the workspace).

import { KEYS, load, save } from './store.js';

const THEMES = ['auto', 'light', 'dark'];
const NARROW = window.matchMedia('(max-width: 760px)');

function applyTheme(button, theme) {
  if (theme === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  button.dataset.theme = theme;
  button.textContent = { auto: '◐ Auto', light: '☀ Light', dark: '☾ Dark' }[theme];
  button.title = `Colour theme: ${theme} (click to change)`;
}

function setSidebar(workspace, button, open) {
  workspace.dataset.sidebar = open ? 'open' : 'closed';
  button.setAttribute('aria-expanded', String(open));
}

export function initLayout() {
  const themeButton = document.getElementById('theme-toggle');
  let theme = load(KEYS.theme, 'auto');
  if (!THEMES.includes(theme)) theme = 'auto';
  applyTheme(themeButton, theme);
  themeButton.addEventListener('click', () => {
    theme = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length];
    save(KEYS.theme, theme);
    applyTheme(themeButton, theme);
  });

  const workspace = document.getElementById('workspace');
  const toggle = document.getElementById('sidebar-toggle');
  setSidebar(workspace, toggle, !NARROW.matches);
  toggle.addEventListener('click', () => {
    setSidebar(workspace, toggle, workspace.dataset.sidebar !== 'open');
  });
  NARROW.addEventListener('change', () => setSidebar(workspace, toggle, !NARROW.matches));
  // on a narrow screen, picking something in the sidebar closes it again
  document.getElementById('sidebar').addEventListener('click', (event) => {
    if (NARROW.matches && event.target.closest('.list-entry')) {
      setSidebar(workspace, toggle, false);
    }
  });
}
