// The console page: sign in, run the editor's SQL over the query protocol, show the answer as it
// arrives (table, status, error with its place in the editor, chart, CSV), keep the session
// (USE, SET) between statements and the schema sidebar in step with it.

import { drawChart, numericColumns } from './chart.js';
import { download, toCsv } from './csv.js';
import { Editor } from './editor.js';
import { errorRange } from './errors.js';
import { History } from './history.js';
import { Connection, HttpError } from './protocol.js';
import { ResultView } from './results.js';
import { SchemaTree } from './schema.js';

const MAX_KEPT_ROWS = 1000000; // rows held for the table, CSV and chart; the rest is not read
const CATALOG_CHANGE = /^\s*(create|drop|alter|rename|truncate|undrop|use)\b/i;

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
  cancel: $('cancel'),
  csv: $('download-csv'),
  chartKind: $('chart-kind'),
  chartColumn: $('chart-column'),
  chart: $('chart'),
  error: $('error'),
  errorCode: $('error-code'),
  errorMessage: $('error-message'),
};

let connection = null; // credentials live here, in memory, and nowhere else
let running = null; // the Statement being run
let ticker = null;

const results = new ResultView({
  table: $('result-table'),
  status: $('status'),
  more: $('more'),
  moreText: $('more-text'),
  moreButton: $('more-button'),
});
const editor = new Editor($('sql'), $('editor-backdrop'), { onRun: () => run() });
const history = new History($('history'), { onPick: (sql) => { editor.value = sql; } });
const schema = new SchemaTree($('schema-tree'), { onInsert: insertText });

function insertText(text) {
  const area = editor.textarea;
  const { selectionStart, selectionEnd, value } = area;
  editor.value = value.slice(0, selectionStart) + text + value.slice(selectionEnd);
  area.focus();
  area.setSelectionRange(selectionStart + text.length, selectionStart + text.length);
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
  editor.textarea.focus();
  schema.refresh(connection, currentDatabase());
});

$('logout').addEventListener('click', () => {
  if (running) running.cancel();
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
  const chips = Object.entries(settings).map(([key, value]) => {
    const chip = document.createElement('span');
    chip.className = 'setting';
    chip.textContent = `${key} = ${value}`;
    return chip;
  });
  ui.sessionSettings.replaceChildren(...chips);
}

// -- running a statement ---------------------------------------------------------------------

function setRunning(statement) {
  running = statement;
  ui.run.disabled = statement !== null;
  ui.cancel.disabled = statement === null;
  clearInterval(ticker);
  ticker = null;
}

function progress(statement, started, note) {
  const stats = statement.stats || {};
  const scanned = stats.scan_progress ? stats.scan_progress.rows : 0;
  results.showStatus({
    state: statement.state,
    rows: results.rows.length,
    scanned: scanned !== results.rows.length ? scanned : 0,
    elapsedMs: performance.now() - started,
    note,
  });
}

async function run() {
  if (!connection || running) return;
  const { sql, offset } = editor.statementText();
  if (!sql.trim()) return;
  editor.clearMark();
  hideError();
  results.clear();
  ui.chart.hidden = true;
  ui.chart.replaceChildren();
  ui.csv.disabled = true;
  history.add(sql);
  const started = performance.now();
  const statement = connection.statement(sql, {
    keepSession: true,
    maxRows: MAX_KEPT_ROWS,
    onAnswer: (s, _answer, rows) => {
      results.add(s.schema, rows);
      progress(s, started);
    },
  });
  setRunning(statement);
  results.showStatus({ state: 'Starting', rows: 0, elapsedMs: 0 });
  ticker = setInterval(() => progress(statement, started), 100);
  try {
    await statement.run();
  } catch (error) {
    statement.state = 'Failed';
    statement.error = { code: error.code ?? error.status ?? '', message: error.message };
  }
  setRunning(null);
  if (connection !== statement.connection) return; // signed out meanwhile
  let note = statement.truncated ? `stopped reading at ${MAX_KEPT_ROWS} rows` : '';
  if (statement.killSent) note = 'canceled';
  progress(statement, started, note);
  if (statement.error) showError(statement.error, sql, offset);
  showSession();
  const affect = statement.affect;
  if (affect && affect.type === 'UseDB') schema.setCurrent(currentDatabase());
  if (statement.state === 'Succeeded' && CATALOG_CHANGE.test(sql)) {
    schema.refresh(connection, currentDatabase());
  }
  ui.csv.disabled = !results.schema.length;
  updateChartChoices();
}

function hideError() {
  ui.error.hidden = true;
  ui.errorCode.textContent = '';
  ui.errorMessage.textContent = '';
}

function showError(error, sql, offset) {
  ui.error.hidden = false;
  ui.errorCode.textContent = `Error ${error.code}`;
  ui.errorMessage.textContent = error.message;
  const range = errorRange(sql, error.message);
  if (range) {
    ui.errorCode.textContent += ` at line ${range.line}, column ${range.column}`;
    editor.markError(offset + range.start, offset + range.end);
  }
}

ui.run.addEventListener('click', () => run());
function cancel() {
  if (running) {
    running.cancel();
    ui.cancel.disabled = true;
  }
}

ui.cancel.addEventListener('click', cancel);
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && running) cancel();
});

// -- CSV and chart ---------------------------------------------------------------------------

ui.csv.addEventListener('click', () => {
  download('result.csv', toCsv(results.schema, results.rows));
});

function updateChartChoices() {
  const columns = numericColumns(results.schema);
  const previous = ui.chartColumn.value;
  ui.chartColumn.replaceChildren(...columns.map((i) => {
    const option = document.createElement('option');
    option.value = String(i);
    option.textContent = results.schema[i].name;
    return option;
  }));
  if (columns.map(String).includes(previous)) ui.chartColumn.value = previous;
  ui.chartColumn.disabled = columns.length === 0;
  updateChart();
}

function updateChart() {
  const kind = ui.chartKind.value;
  const column = Number(ui.chartColumn.value);
  if (kind === 'none' || ui.chartColumn.disabled || !results.rows.length || running) {
    ui.chart.hidden = true;
    ui.chart.replaceChildren();
    return;
  }
  drawChart(ui.chart, results.schema, results.rows, { kind, column });
  ui.chart.hidden = false;
}

ui.chartKind.addEventListener('change', updateChart);
ui.chartColumn.addEventListener('change', updateChart);
$('schema-refresh').addEventListener('click', () => {
  if (connection) schema.refresh(connection, currentDatabase());
});
$('history-clear').addEventListener('click', () => history.clear());
updateChartChoices();
ui.loginPassword.focus();
