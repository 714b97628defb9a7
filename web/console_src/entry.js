// What the console takes from CodeMirror 6: the editor view and state, the SQL language with
// its highlighting (as tok-* classes, styled by console.css for both themes), completion,
// history, search and the keymaps. build.mjs bundles this file into ../console/codemirror.js.
export { EditorState, EditorSelection, StateEffect, StateField, Compartment, Prec } from '@codemirror/state';
export {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection,
  highlightSpecialChars, placeholder, Decoration, WidgetType, dropCursor, rectangularSelection,
} from '@codemirror/view';
export {
  defaultKeymap, history, historyKeymap, indentWithTab, isolateHistory, undo, redo, undoDepth,
} from '@codemirror/commands';
export {
  syntaxHighlighting, bracketMatching, indentOnInput, syntaxTree, foldGutter, foldKeymap,
} from '@codemirror/language';
export {
  autocompletion, completionKeymap, closeBrackets, closeBracketsKeymap, completeFromList,
  ifNotIn, startCompletion, currentCompletions, acceptCompletion,
} from '@codemirror/autocomplete';
export { searchKeymap, highlightSelectionMatches } from '@codemirror/search';
export { sql, SQLDialect, StandardSQL, MySQL, keywordCompletionSource, schemaCompletionSource } from '@codemirror/lang-sql';
export { classHighlighter } from '@lezer/highlight';
