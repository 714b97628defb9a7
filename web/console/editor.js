// The SQL editor: CodeMirror 6 (vendored in codemirror.js) with Databend's SQL highlighted,
// completion of keywords, the server's functions, databases, tables and the columns of the
// tables a statement names, Tab to indent, an error mark, and the run keys:
// Ctrl/Cmd+Enter runs the statement under the cursor (or the selection), Shift+Ctrl/Cmd+Enter
// the whole script. Each tab of the console has its own EditorState (text and undo history).

import {
  Decoration, EditorSelection, EditorState, EditorView, Prec, SQLDialect, StateEffect, StateField,
  autocompletion, bracketMatching, classHighlighter, closeBrackets, closeBracketsKeymap,
  completionKeymap, defaultKeymap, drawSelection, highlightActiveLine, highlightActiveLineGutter,
  highlightSelectionMatches, highlightSpecialChars, history, historyKeymap, ifNotIn,
  indentOnInput, indentWithTab, isolateHistory, keymap, keywordCompletionSource, lineNumbers, placeholder,
  schemaCompletionSource, searchKeymap, sql, syntaxHighlighting, WidgetType,
} from './codemirror.js';

// Databend's keywords and types (highlighted, and completed in upper case)
const KEYWORDS = 'select from where group by order having limit offset join left right inner '
  + 'outer full cross natural on using as and or not in is null like ilike rlike regexp '
  + 'between case when then else end distinct union all any except intersect exists with '
  + 'recursive insert into values update set delete create table view database databases if '
  + 'drop alter rename to add column modify truncate show tables columns functions settings '
  + 'describe desc explain analyze use copy stage stages file_format list remove presign '
  + 'download upload grant revoke role roles user users identified kill query processlist '
  + 'begin commit rollback transaction over partition window rows range unbounded '
  + 'preceding following current row qualify pivot unpivot lateral flatten asc nulls first '
  + 'last replace cast try_cast interval true false default comment cluster engine '
  + 'materialized undrop optimize vacuum purge unset format pattern files force on_error '
  + 'type field_delimiter record_delimiter skip_header compression single max_file_size '
  + 'overwrite or_replace temporary transient primary key unique check constraint '
  + 'references returning fetch next only top sample array map tuple extract date_add '
  + 'date_sub date_trunc trim position substring collate escape within filter ignore '
  + 'respect exclude';
const TYPES = 'boolean bool tinyint smallint int integer bigint int8 int16 int32 int64 uint8 '
  + 'uint16 uint32 uint64 float float32 float64 double real decimal numeric string varchar '
  + 'char text binary varbinary date timestamp datetime variant json object bitmap geometry '
  + 'geography nullable';

export const DATABEND = SQLDialect.define({
  keywords: KEYWORDS,
  types: TYPES,
  identifierQuotes: '"`',
  backslashEscapes: true,
  operatorChars: '*+-%<>!=&|~^/:',
});

const QUOTED_OR_COMMENT = ['String', 'QuotedIdentifier', 'LineComment', 'BlockComment'];

const setMark = StateEffect.define();
const errorMark = Decoration.mark({ tagName: 'mark', class: 'error-mark', attributes: { id: 'error-mark' } });
/** The mark of an error at a place with no text under it (the end of the script). */
class ErrorCaret extends WidgetType {
  eq() { return true; }

  toDOM() {
    const mark = document.createElement('mark');
    mark.className = 'error-mark';
    mark.id = 'error-mark';
    mark.textContent = ' ';
    return mark;
  }
}
const errorCaret = Decoration.widget({ widget: new ErrorCaret(), side: 1 });

/** The error mark: one range, cleared by any edit. */
const markField = StateField.define({
  create: () => Decoration.none,
  update(marks, transaction) {
    if (transaction.docChanged) marks = Decoration.none;
    for (const effect of transaction.effects) {
      if (effect.is(setMark)) {
        const { start, end } = effect.value || {};
        if (effect.value === null) marks = Decoration.none;
        else if (end > start) marks = Decoration.set([errorMark.range(start, end)]);
        else marks = Decoration.set([errorCaret.range(start)]);
      }
    }
    return marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/** Words of `text` that name one of `tables` (lower-cased keys of `columnsByTable`). */
function namedTables(text, columnsByTable) {
  const found = new Set();
  for (const match of text.matchAll(/[`"]?([\p{L}_][\p{L}\p{N}_$]*)[`"]?/gu)) {
    const name = match[1].toLowerCase();
    if (columnsByTable.has(name)) found.add(name);
  }
  return found;
}

export class Editor {
  /**
   * `parent`: the element to hold the editor; `onRun(mode)` with mode 'current' or 'all';
   * `onChange(text)` after each edit.
   */
  constructor(parent, { onRun, onChange }) {
    this.onRun = onRun;
    this.onChange = onChange;
    this.completion = { functions: [], schema: {}, database: 'default', columnsByTable: new Map() };
    this.schemaSource = schemaCompletionSource({ dialect: DATABEND, schema: {} });
    this.extensions = this.#extensions();
    this.view = new EditorView({ parent, state: this.newState('') });
    this.view.contentDOM.setAttribute('aria-label', 'SQL');
  }

  #extensions() {
    const run = (mode) => () => { this.onRun(mode); return true; };
    return [
      lineNumbers(),
      highlightActiveLineGutter(),
      highlightSpecialChars(),
      history(),
      drawSelection(),
      indentOnInput(),
      syntaxHighlighting(classHighlighter),
      bracketMatching(),
      closeBrackets(),
      highlightActiveLine(),
      highlightSelectionMatches(),
      placeholder('SELECT * FROM numbers(10)'),
      EditorView.lineWrapping,
      sql({ dialect: DATABEND, upperCaseKeywords: true }),
      autocompletion({
        override: [
          ifNotIn(QUOTED_OR_COMMENT, keywordCompletionSource(DATABEND, true)),
          ifNotIn(QUOTED_OR_COMMENT, (context) => this.schemaSource(context)),
          ifNotIn(QUOTED_OR_COMMENT, (context) => this.#namesSource(context)),
        ],
      }),
      markField,
      Prec.highest(keymap.of([
        { key: 'Mod-Enter', run: run('current') },
        { key: 'Shift-Mod-Enter', run: run('all') },
      ])),
      keymap.of([
        ...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap,
        ...completionKeymap, indentWithTab,
      ]),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) this.onChange(update.state.doc.toString());
      }),
    ];
  }

  /** A fresh EditorState (a tab's own text and undo history). */
  newState(text) {
    return EditorState.create({ doc: text, extensions: this.extensions });
  }

  get state() { return this.view.state; }

  /** Show another tab's state (its text, selection and undo history). */
  setState(state) {
    this.view.setState(state);
  }

  get value() { return this.view.state.doc.toString(); }

  /** Replace the text as one undoable change of its own (Ctrl+Z brings the previous text
   * back, even right after typing). */
  replaceAll(text) {
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: text },
      selection: { anchor: text.length }, scrollIntoView: true,
      annotations: isolateHistory.of('full') });
  }

  /** Insert at the cursor, with a space before when it would glue onto a word. */
  insert(text) {
    const { from, to } = this.view.state.selection.main;
    const before = from > 0 ? this.view.state.doc.sliceString(from - 1, from) : '';
    const insert = /[\w.)]/.test(before) && !text.startsWith('.') ? ` ${text}` : text;
    this.view.dispatch({ changes: { from, to, insert },
      selection: { anchor: from + insert.length }, scrollIntoView: true });
    this.view.focus();
  }

  /** The selection {from, to} (equal when nothing is selected) and the cursor. */
  selection() {
    const { from, to, head } = this.view.state.selection.main;
    return { from, to, head };
  }

  focus() { this.view.focus(); }

  /** Mark characters [start, end) of the text (an empty range marks one blank cell). */
  markError(start, end) {
    const length = this.view.state.doc.length;
    const from = Math.min(start, length);
    this.view.dispatch({
      effects: setMark.of({ start: from, end: Math.min(end, length) }),
      selection: EditorSelection.cursor(from),
      scrollIntoView: true,
    });
    this.view.focus();
  }

  clearMark() {
    this.view.dispatch({ effects: setMark.of(null) });
  }

  /** Names to complete: `functions` (from the server), and the catalog read by the schema
   * sidebar: `databases`, `tables` [[database, name]], `columns` [[database, table, name]]. */
  setCompletions({ functions, databases, tables, columns, database }) {
    if (functions) this.completion.functions = functions;
    if (databases) {
      const schema = {};
      for (const name of databases) schema[name] = {};
      for (const [db, table] of tables) (schema[db] ??= {})[table] = [];
      const columnsByTable = new Map();
      for (const [db, table, column] of columns) {
        ((schema[db] ??= {})[table] ??= []).push(column);
        if (db === (database || 'default')) {
          const key = table.toLowerCase();
          if (!columnsByTable.has(key)) columnsByTable.set(key, []);
          columnsByTable.get(key).push(column);
        }
      }
      this.completion.schema = schema;
      this.completion.columnsByTable = columnsByTable;
    }
    this.completion.database = database || this.completion.database;
    this.schemaSource = schemaCompletionSource({ dialect: DATABEND, schema: this.completion.schema,
      defaultSchema: this.completion.database });
  }

  /** Functions, and the columns of the tables the statement around the cursor names. */
  #namesSource(context) {
    const word = context.matchBefore(/[\p{L}_][\p{L}\p{N}_$]*/u);
    if (!word && !context.explicit) return null;
    const from = word ? word.from : context.pos;
    if (from > 0 && context.state.doc.sliceString(from - 1, from) === '.') return null;
    const doc = context.state.doc.toString();
    const start = doc.lastIndexOf(';', from - 1) + 1;
    const end = doc.indexOf(';', context.pos);
    const statement = doc.slice(start, end < 0 ? doc.length : end);
    const options = [];
    const { columnsByTable, functions } = this.completion;
    for (const table of namedTables(statement, columnsByTable)) {
      for (const column of columnsByTable.get(table)) {
        options.push({ label: column, type: 'property', detail: table, boost: 2 });
      }
    }
    for (const name of functions) options.push({ label: name, type: 'function', apply: name });
    return { from, options, validFor: /^[\p{L}\p{N}_$]*$/u };
  }
}
