// The console page: sign in, then run the editor's SQL over the query protocol, statement by
// statement, and show each answer as it arrives (status, grid, error with its place in the
// editor, chart, downloads); keep the session (USE, SET) between statements, the schema
// sidebar and the completion in step with the catalog, the query in the URL, and tabs,
// history and saved queries in the browser.

import { ROW_NUMBER, defaultAxes, drawChart, numericColumns } from './chart.js';
import { FORMATS, download } from './csv.js';
import { Editor } from './editor.js';
import { errorRange } from './errors.js';
import { Grid } from './grid.js';
import { History, SavedQueries, confirmingButton } from './history.js';
import { Connection, HttpError } from './protocol.js';
import { formatCount, showStatus } from './results.js';
import { SchemaTree } from './schema.js';
import { ParamInputs, paramValue, planRun } from './script.js';
import { KEYS, load, save } from './store.js';
import { Tabs } from './tabs.js';
import { initLayout } from './layout.js';
import { canWriteParquet, exportParquet, isQuery } from './parquet.js';

const CATALOG_CHANGE = /^\s*(create|drop|alter|rename|truncate|undrop|use)\b/i;
// statements that may carry a password stay out of the URL
const SECRET = /\b(identified|password|secret|credential)/i;
const DEFAULT_ROW_CAP = 1000000;

const $ = (id) => document.getElementById(id);

const ui = {
  login: $('login'),
  loginForm: $('login-form'),
  loginUser: $('login-user'),
  loginPassword: $('login-password'),
  loginError: $('login-error'),
  workspace: $('workspace'),
  userInfo: $('user-info'),
  userName: $('user-name'),
  sessionInfo: $('session-info'),
  sessionDatabase: $('session-database'),
  sessionSettings: $('session-settings'),
  run: $('run'),
  runAll: $('run-all'),
  cancel: $('cancel'),
  runs: $('runs'),
  status: $('status'),
  notice: $('notice'),
  rowCap: $('row-cap'),
  chartKind: $('chart-kind'),
  chartX: $('chart-x'),
  chartY: $('chart-y'),
  chart: $('chart'),
  error: $('error'),
  errorCode: $('error-code'),
  errorMessage: $('error-message'),
  downloads: [...document.querySelectorAll('[data-download]')],
  parquet: $('download-parquet'),
};

let connection = null; // credentials live here, in memory, and nowhere else
let running = null; // {tab, run, statement} of the statement being run
let ticker = null;
let paramTimer = null;
let parquetWriter = null; // the connection whose server writes Parquet (probed at sign-in)

const editor = new Editor($('sql'), {
  onRun: (mode) => runScript(mode),
  onChange: () => {
    tabs.changed();
    scheduleParams();
  },
});
const tabs = new Tabs($('tabs'), editor, { onSwitch: (tab) => showTab(tab) });
const grid = new Grid({
  scroller: $('result'), head: $('grid-head'), body: $('grid-body'),
  filter: $('grid-filter'), count: $('grid-count'),
  viewer: { dialog: $('cell-viewer'), title: $('cell-viewer-title'), body: $('cell-viewer-text') },
});
const params = new ParamInputs($('params'), {
  onInput: (name, text) => {
    tabs.current.params[name] = text;
    tabs.persist();
  },
});
const history = new History($('history'), { onOpen: (sql) => openInTab(sql) });
const saved = new SavedQueries($('saved'), { onOpen: (sql, name) => openInTab(sql, name) });
const schema = new SchemaTree($('schema-tree'), {
  onInsert: (text) => editor.insert(text),
  onLoaded: (catalog) => editor.setCompletions(catalog),
});
initLayout();

/** Open `sql` without losing the draft: in the current tab if it is empty, else a new one. */
function openInTab(sql, name = '') {
  if (!editor.value.trim()) {
    editor.replaceAll(sql);
    tabs.current.name = name;
    tabs.changed();
  } else {
    tabs.open(sql, name);
  }
  editor.focus();
}

// -- signing in ------------------------------------------------------------------------------

ui.loginForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  ui.loginError.textContent = '';
  const candidate = new Connection(ui.loginUser.value, ui.loginPassword.value);
  try {
    await candidate.login();
  } catch (error) {
    ui.loginError.textContent = error instanceof HttpError && error.status === 401
      ? `Wrong user or password (${error.message})` : `Cannot sign in: ${error.message}`;
    return;
  }
  ui.loginPassword.value = '';
  connection = candidate;
  ui.userName.textContent = connection.user;
  ui.login.hidden = true;
  ui.workspace.hidden = false;
  ui.userInfo.hidden = false;
  ui.sessionInfo.hidden = false;
  showSession();
  showTab(tabs.current);
  editor.focus();
  schema.refresh(connection, currentDatabase());
  loadFunctions(connection);
  probeParquet(connection);
  scheduleParams(0);
});

async function loadFunctions(from) {
  const names = [];
  const statement = from.statement('SELECT name FROM system.functions ORDER BY name', {
    maxRows: 10000, waitSecs: 5, onAnswer: (_, __, rows) => { for (const r of rows) names.push(r[0]); },
  });
  try {
    await statement.run();
    if (!statement.error) editor.setCompletions({ functions: names });
  } catch (_) { /* completion without functions */ }
}

/** Offer the Parquet download if `from`'s server writes Parquet (it needs pyarrow). */
async function probeParquet(from) {
  const writes = await canWriteParquet(from);
  if (from !== connection) return;
  parquetWriter = writes ? from : null;
  ui.parquet.dataset.serverWrites = String(writes);
  ui.parquet.hidden = !writes;
  showTab(tabs.current);
}

$('logout').addEventListener('click', () => {
  if (running && running.statement) running.statement.cancel();
  if (connection) connection.logout();
  connection = null;
  ui.workspace.hidden = true;
  ui.userInfo.hidden = true;
  ui.sessionInfo.hidden = true;
  ui.login.hidden = false;
  ui.loginPassword.focus();
});

// -- session ---------------------------------------------------------------------------------

function currentDatabase() {
  return (connection && connection.session && connection.session.database) || 'default';
}

function showSession() {
  ui.sessionDatabase.textContent = currentDatabase();
  const settings = (connection && connection.session && connection.session.settings) || {};
  ui.sessionSettings.replaceChildren(...Object.entries(settings).map(([key, value]) => {
    const chip = document.createElement('span');
    chip.className = 'setting';
    chip.textContent = `${key} = ${value}`;
    return chip;
  }));
}

// -- parameters ------------------------------------------------------------------------------

/** Ask the server (soon, once typing pauses) which :name parameters the script uses. */
function scheduleParams(delay = 400) {
  clearTimeout(paramTimer);
  paramTimer = setTimeout(async () => {
    if (!connection) return;
    const tab = tabs.current;
    const text = editor.value;
    let names = [];
    if (text.includes(':')) {
      try {
        const { spans } = await planRun(connection, text, { from: 0, to: 0, head: 0 }, 'all');
        names = [...new Set(spans.flatMap((span) => span.params || []))];
      } catch (_) { return; }
    }
    if (tab === tabs.current) params.show(names, tab.params);
  }, delay);
}

function paramsFor(tab, names) {
  const values = {};
  for (const name of names || []) {
    if (name in tab.params) values[name] = paramValue(tab.params[name]);
  }
  return values;
}

// -- running a script ------------------------------------------------------------------------

function rowCap() {
  return Number(ui.rowCap.value) || DEFAULT_ROW_CAP;
}

function setRunning(value) {
  running = value;
  ui.run.disabled = value !== null;
  ui.runAll.disabled = value !== null;
  ui.cancel.disabled = value === null;
  clearInterval(ticker);
  ticker = null;
}

async function runScript(mode) {
  if (!connection || running) return;
  const tab = tabs.current;
  const text = editor.value;
  editor.clearMark();
  setRunning({ tab, run: null, statement: null }); // busy from now: asking for the statements
  showStatus(ui.status, { state: 'Starting', rows: 0, elapsedMs: 0 });
  let plan;
  try {
    plan = await planRun(connection, text, editor.selection(), mode);
  } catch (error) {
    setRunning(null);
    tab.runs = [{ sql: text, offset: 0, state: 'Failed', rows: [], schema: [], elapsedMs: 0,
      error: { code: error.status || '', message: error.message } }];
    tab.shown = 0;
    showTab(tab);
    return;
  }
  setRunning(null);
  if (!plan.spans.length) {
    showTab(tab);
    return;
  }
  tab.runs = plan.spans.map((span) => ({
    sql: text.slice(plan.offset + span.start, plan.offset + span.end),
    offset: plan.offset + span.start, params: span.params || [], state: 'Waiting', rows: [],
    schema: [], elapsedMs: 0, error: null, note: '',
  }));
  const first = plan.spans[0];
  const last = plan.spans[plan.spans.length - 1];
  const ranText = text.slice(plan.offset + first.start, plan.offset + last.end);
  history.add(ranText);
  remember(ranText, tab);
  let catalogChanged = false;
  for (let i = 0; i < tab.runs.length; i++) {
    const run = tab.runs[i];
    if (tab === tabs.current) {
      tab.shown = i;
      showTab(tab);
    }
    await runStatement(tab, run);
    if (!connection) break; // signed out meanwhile
    if (run.state === 'Succeeded' && CATALOG_CHANGE.test(run.sql)) catalogChanged = true;
    if (run.state !== 'Succeeded') {
      for (const rest of tab.runs.slice(i + 1)) rest.state = 'Not run';
      if (tab === tabs.current) markError(run);
      break;
    }
  }
  setRunning(null); // the script is over: Run again
  if (!connection) return;
  if (tab === tabs.current) showTab(tab);
  if (catalogChanged) schema.refresh(connection, currentDatabase());
}

async function runStatement(tab, run) {
  const started = performance.now();
  const statement = connection.statement(run.sql, {
    keepSession: true,
    maxRows: rowCap(),
    params: paramsFor(tab, run.params),
    onAnswer: (s, _answer, rows) => {
      if (!run.schema.length && s.schema.length) {
        run.schema = s.schema;
        if (isShown(tab, run)) grid.show(run.schema, run.rows);
      }
      for (const row of rows) run.rows.push(row);
      if (isShown(tab, run)) grid.rowsAdded();
      progress(tab, run, statement, started);
    },
  });
  run.state = 'Starting';
  setRunning({ tab, run, statement });
  drawRuns(tab);
  progress(tab, run, statement, started);
  ticker = setInterval(() => progress(tab, run, statement, started), 100);
  try {
    await statement.run();
  } catch (error) {
    statement.state = 'Failed';
    statement.error = { code: error.code ?? error.status ?? '', message: error.message };
  }
  clearInterval(ticker);
  ticker = null;
  running.statement = null; // the script goes on (or ends) in runScript
  run.state = statement.state;
  run.error = statement.error;
  run.elapsedMs = performance.now() - started;
  run.capped = statement.truncated && statement.state === 'Succeeded';
  run.note = statement.killSent ? 'canceled' : '';
  showSession();
  const affect = statement.affect;
  if (affect && affect.type === 'UseDB') schema.setCurrent(currentDatabase());
}

function isShown(tab, run) {
  return tab === tabs.current && tab.runs[tab.shown] === run;
}

function progress(tab, run, statement, started) {
  run.state = statement.state;
  const stats = statement.stats || {};
  const scanned = stats.scan_progress ? stats.scan_progress.rows : 0;
  run.scanned = scanned !== run.rows.length ? scanned : 0;
  run.elapsedMs = performance.now() - started;
  if (isShown(tab, run)) showStatus(ui.status, statusOf(run));
}

function statusOf(run) {
  return { state: run.state, rows: run.rows.length, scanned: run.scanned,
    elapsedMs: run.elapsedMs, note: run.note };
}

function cancel() {
  if (running && running.statement) {
    running.statement.cancel();
    ui.cancel.disabled = true;
  }
}

ui.run.addEventListener('click', () => runScript('current'));
ui.runAll.addEventListener('click', () => runScript('all'));
ui.cancel.addEventListener('click', cancel);
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && running && !$('cell-viewer').open) cancel();
});

// -- showing a tab's results -----------------------------------------------------------------

/** The statements of the last run (when more than one) and the one shown. */
function drawRuns(tab) {
  if (tab !== tabs.current) return;
  ui.runs.hidden = tab.runs.length < 2;
  ui.runs.replaceChildren(...tab.runs.map((run, i) => {
    const item = document.createElement('li');
    item.className = 'run';
    item.dataset.state = run.state;
    item.setAttribute('aria-current', String(i === tab.shown));
    const button = document.createElement('button');
    button.type = 'button';
    const head = run.sql.replace(/\s+/g, ' ').trim();
    const detail = ['Waiting', 'Not run'].includes(run.state) ? run.state
      : `${run.state} · ${formatCount(run.rows.length)} ${run.rows.length === 1 ? 'row' : 'rows'}`;
    button.textContent = `${i + 1}. ${head.length > 60 ? `${head.slice(0, 59)}…` : head}`;
    button.title = run.sql;
    const state = document.createElement('span');
    state.className = 'run-state';
    state.textContent = detail;
    button.append(state);
    button.addEventListener('click', () => {
      tab.shown = i;
      showTab(tab);
    });
    item.append(button);
    return item;
  }));
}

/** Show `tab`'s shown statement: status, error, notice, grid and chart. */
function showTab(tab) {
  if (tab !== tabs.current) return;
  drawRuns(tab);
  scheduleParams(0);
  const run = tab.runs[tab.shown];
  hideError();
  ui.notice.hidden = true;
  if (!run) {
    ui.status.textContent = '';
    ui.status.dataset.state = '';
    ui.status.dataset.rows = '0';
    grid.show([], []);
    updateChartChoices(null);
    return;
  }
  showStatus(ui.status, statusOf(run));
  if (run.error) showError(run.error, run.sql);
  if (run.capped) {
    ui.notice.hidden = false;
    ui.notice.textContent = `Showing the first ${formatCount(run.rows.length)} rows: the console `
      + 'keeps at most that many (choose more under "Keep", or export everything with COPY INTO).';
  }
  if (grid.rows !== run.rows || grid.schema !== run.schema) grid.show(run.schema, run.rows);
  else grid.rowsAdded();
  updateChartChoices(running && running.run === run ? null : run);
}

function hideError() {
  ui.error.hidden = true;
  ui.errorCode.textContent = '';
  ui.errorMessage.textContent = '';
}

function showError(error, sql) {
  ui.error.hidden = false;
  ui.errorCode.textContent = `Error ${error.code}`;
  ui.errorMessage.textContent = error.message;
  const range = errorRange(sql, error.message);
  if (range) ui.errorCode.textContent += ` at line ${range.line}, column ${range.column}`;
}

/** Mark a failed statement's error in the editor (positions are the statement's own). */
function markError(run) {
  if (!run.error) return;
  const range = errorRange(run.sql, run.error.message);
  if (range) editor.markError(run.offset + range.start, run.offset + range.end);
}

// -- the URL: the query run last, so back, bookmarks and links bring it back ------------------

function remember(sql, tab) {
  if (SECRET.test(sql)) return;
  const query = new URLSearchParams({ sql });
  for (const name of new Set(tab.runs.flatMap((run) => run.params))) {
    if (tab.params[name] !== undefined) query.set(`:${name}`, tab.params[name]);
  }
  const search = `?${query}`;
  if (search !== window.location.search) window.history.pushState(null, '', search);
}

function fromUrl() {
  const query = new URLSearchParams(window.location.search);
  const values = {};
  for (const [key, value] of query) if (key.startsWith(':')) values[key.slice(1)] = value;
  return { sql: query.get('sql'), values };
}

{
  const { sql, values } = fromUrl();
  if (sql !== null) {
    tabs.openOrFind(sql); // a new tab: the drafts stay as they were
    Object.assign(tabs.current.params, values);
  }
}

window.addEventListener('popstate', () => {
  const { sql, values } = fromUrl();
  if (sql === null || sql === editor.value) return;
  editor.replaceAll(sql); // one change: Ctrl+Z brings the text before back
  Object.assign(tabs.current.params, values);
  scheduleParams(0);
});

// -- downloads and the chart -----------------------------------------------------------------

for (const button of ui.downloads) {
  button.addEventListener('click', () => {
    const format = FORMATS[button.dataset.download];
    download(`result.${button.dataset.download}`, format.make(grid.schema, grid.shownRows()),
      format.type);
  });
}

ui.parquet.addEventListener('click', async () => {
  const tab = tabs.current;
  const run = tab.runs[tab.shown];
  if (!run || !connection) return;
  ui.parquet.disabled = true;
  ui.parquet.dataset.busy = 'true';
  ui.notice.hidden = true;
  try {
    download('result.parquet', await exportParquet(connection, run.sql, paramsFor(tab, run.params)),
      'application/vnd.apache.parquet');
  } catch (error) {
    ui.notice.hidden = false;
    ui.notice.textContent = `No Parquet file: ${error.code ? `error ${error.code}: ` : ''}`
      + `${error.message}`;
  } finally {
    delete ui.parquet.dataset.busy;
    updateParquet(tabs.current.runs[tabs.current.shown]);
  }
});

/** The Parquet download: for a query that succeeded, when the server writes Parquet. */
function updateParquet(run) {
  ui.parquet.hidden = !connection || parquetWriter !== connection;
  ui.parquet.disabled = ui.parquet.hidden || Boolean(ui.parquet.dataset.busy) || !run
    || run.state !== 'Succeeded' || !run.schema.length || !isQuery(run.sql)
    || Boolean(running && running.run === run);
}

function option(value, text) {
  const element = document.createElement('option');
  element.value = String(value);
  element.textContent = text;
  return element;
}

function updateChartChoices(run) {
  const columns = run ? run.schema : [];
  const hasRows = Boolean(run && run.rows.length && columns.length);
  for (const button of ui.downloads) button.disabled = !hasRows && !(run && columns.length);
  updateParquet(run);
  const numeric = numericColumns(columns);
  const axes = defaultAxes(columns);
  const keepX = ui.chartX.value;
  const keepY = ui.chartY.value;
  ui.chartX.replaceChildren(option(ROW_NUMBER, 'row number'),
    ...columns.map((field, i) => option(i, field.name)));
  ui.chartY.replaceChildren(...numeric.map((i) => option(i, columns[i].name)));
  const sameColumns = run && run.chartColumns === columns.map((f) => f.name).join('\0');
  ui.chartX.value = sameColumns && keepX ? keepX : String(axes.x);
  ui.chartY.value = sameColumns && keepY ? keepY : String(axes.y);
  if (run) run.chartColumns = columns.map((f) => f.name).join('\0');
  ui.chartX.disabled = !numeric.length;
  ui.chartY.disabled = !numeric.length;
  updateChart(run);
}

function updateChart(run = tabs.current.runs[tabs.current.shown]) {
  const kind = ui.chartKind.value;
  if (kind === 'none' || !run || ui.chartY.disabled || !run.rows.length
      || (running && running.run === run)) {
    ui.chart.hidden = true;
    ui.chart.replaceChildren();
    return;
  }
  const x = ui.chartX.value === ROW_NUMBER ? ROW_NUMBER : Number(ui.chartX.value);
  drawChart(ui.chart, run.schema, grid.shownRows(), { kind, x, y: Number(ui.chartY.value) });
  ui.chart.hidden = false;
}

for (const control of [ui.chartKind, ui.chartX, ui.chartY]) {
  control.addEventListener('change', () => updateChart());
}

// -- the rest of the controls ----------------------------------------------------------------

ui.rowCap.value = String(load(KEYS.rowCap, DEFAULT_ROW_CAP));
if (!ui.rowCap.value) ui.rowCap.value = String(DEFAULT_ROW_CAP);
ui.rowCap.addEventListener('change', () => save(KEYS.rowCap, Number(ui.rowCap.value)));

$('save').addEventListener('click', () => {
  const text = editor.value.trim();
  if (!text) return;
  const name = window.prompt('Save this query as', tabs.current.name || text.split('\n')[0]
    .slice(0, 40));
  if (name === null) return;
  saved.add(name, editor.value);
  tabs.current.name = name.trim();
  tabs.changed();
});
$('schema-refresh').addEventListener('click', () => {
  if (connection) schema.refresh(connection, currentDatabase());
});
confirmingButton($('history-clear'), () => history.clear());
$('cell-viewer-close').addEventListener('click', () => $('cell-viewer').close());
$('cell-viewer-copy').addEventListener('click', () => {
  navigator.clipboard.writeText(grid.viewer.raw || '').catch(() => {});
});
updateChartChoices(null);
ui.loginPassword.focus();
