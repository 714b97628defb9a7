// The SQL editor: a textarea whose text survives reloads (localStorage holds the SQL, nothing
// else), Ctrl/Cmd+Enter to run, and an error mark drawn on a backdrop under the transparent
// textarea (same font, padding and wrapping, scrolled together).

const TEXT_KEY = 'queryhttp.console.sql';

export class Editor {
  constructor(textarea, backdrop, { onRun }) {
    this.textarea = textarea;
    this.backdrop = backdrop;
    this.onRun = onRun;
    this.mark = null;
    textarea.value = loadText();
    textarea.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.onRun();
      }
    });
    textarea.addEventListener('input', () => {
      saveText(textarea.value);
      this.clearMark();
    });
    textarea.addEventListener('scroll', () => this.#syncScroll());
    this.#draw();
  }

  /** The SQL to run (the selection, if any, else all the text) and where it starts. */
  statementText() {
    const { value, selectionStart, selectionEnd } = this.textarea;
    if (selectionEnd > selectionStart && value.slice(selectionStart, selectionEnd).trim()) {
      return { sql: value.slice(selectionStart, selectionEnd), offset: selectionStart };
    }
    return { sql: value, offset: 0 };
  }

  get value() {
    return this.textarea.value;
  }

  set value(text) {
    this.textarea.value = text;
    saveText(text);
    this.clearMark();
  }

  /** Mark characters [start, end) of the text (an empty range marks one blank cell). */
  markError(start, end) {
    this.mark = { start, end };
    this.#draw();
    this.textarea.focus();
    this.textarea.setSelectionRange(start, start);
    this.#scrollToMark();
  }

  clearMark() {
    if (this.mark === null) return;
    this.mark = null;
    this.#draw();
  }

  #draw() {
    const text = this.textarea.value;
    const parts = [];
    if (this.mark) {
      const { start, end } = this.mark;
      const mark = document.createElement('mark');
      mark.className = 'error-mark';
      mark.id = 'error-mark';
      mark.textContent = end > start ? text.slice(start, end) : ' ';
      parts.push(document.createTextNode(text.slice(0, start)), mark,
        document.createTextNode(text.slice(end)));
    } else {
      parts.push(document.createTextNode(text));
    }
    // a trailing newline needs a character after it to take up its line, as in the textarea
    parts.push(document.createTextNode('\n '));
    this.backdrop.replaceChildren(...parts);
    this.#syncScroll();
  }

  #syncScroll() {
    this.backdrop.scrollTop = this.textarea.scrollTop;
    this.backdrop.scrollLeft = this.textarea.scrollLeft;
  }

  #scrollToMark() {
    const mark = this.backdrop.querySelector('mark');
    if (!mark) return;
    const top = mark.offsetTop - this.backdrop.clientHeight / 3;
    this.textarea.scrollTop = Math.max(0, top);
    this.#syncScroll();
  }
}

function loadText() {
  try {
    return localStorage.getItem(TEXT_KEY) ?? 'SELECT number, number * number AS square\nFROM numbers(10)';
  } catch (_) {
    return '';
  }
}

function saveText(text) {
  try {
    localStorage.setItem(TEXT_KEY, text);
  } catch (_) { /* storage full or disabled: the text lives in the page only */ }
}
