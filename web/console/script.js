// What a run runs: the statements of the script (Run all), of the selection, or the one under
// the cursor (Run), as the server's grammar cuts them (POST /v1/console/split); and the inputs
// for the `:name` parameters the statements use, whose values are sent as the query's params.

/**
 * {offset, spans: [{start, end, complete, params}]}: spans are offsets in the text from
 * `offset`. `mode` 'all' takes the whole text, 'current' the selection if there is one, else
 * the statement the cursor is in (or the last one before it).
 */
export async function planRun(connection, text, selection, mode) {
  let offset = 0;
  let script = text;
  const selected = mode === 'current' && selection.to > selection.from
    && text.slice(selection.from, selection.to).trim() !== '';
  if (selected) {
    offset = selection.from;
    script = text.slice(selection.from, selection.to);
  }
  const spans = await split(connection, script);
  if (mode === 'current' && !selected && spans.length > 1) {
    const cursor = selection.head;
    let chosen = spans[0];
    for (const span of spans) if (span.start <= cursor) chosen = span;
    return { offset, spans: [chosen] };
  }
  return { offset, spans };
}

async function split(connection, script) {
  try {
    const answer = await connection.split(script);
    return answer.statements;
  } catch (error) {
    if (error.status === 401) throw error;
    // a server without the endpoint (or refusing this script): run the text as one statement
    // and let the query's own answer tell what is wrong
    const start = script.length - script.trimStart().length;
    const end = script.trimEnd().length;
    return start < end ? [{ start, end, complete: false, params: [] }] : [];
  }
}

/** A parameter's value as sent: JSON when the text is JSON (5, true, "5", [1,2]), else text. */
export function paramValue(text) {
  try {
    return JSON.parse(text);
  } catch (_) {
    return text;
  }
}

/** The `:name` inputs over the results; `onInput(name, text)` as the user types. */
export class ParamInputs {
  constructor(container, { onInput }) {
    this.container = container;
    this.onInput = onInput;
    this.names = [];
  }

  /** Inputs for `names` with the tab's `values` ({name: text}). */
  show(names, values) {
    const same = names.length === this.names.length && names.every((n, i) => n === this.names[i]);
    if (same) {
      for (const input of this.container.querySelectorAll('input')) {
        const value = values[input.dataset.name] ?? '';
        if (input.value !== value && document.activeElement !== input) input.value = value;
      }
      return;
    }
    this.names = names;
    this.container.hidden = names.length === 0;
    const fields = names.map((name) => {
      const label = document.createElement('label');
      label.className = 'param';
      const caption = document.createElement('span');
      caption.textContent = `:${name}`;
      const input = document.createElement('input');
      input.dataset.name = name;
      input.id = `param-${name}`;
      input.value = values[name] ?? '';
      input.placeholder = 'value (JSON, or text)';
      input.spellcheck = false;
      input.addEventListener('input', () => this.onInput(name, input.value));
      label.append(caption, input);
      return label;
    });
    const title = document.createElement('span');
    title.className = 'params-title';
    title.textContent = 'Parameters';
    this.container.replaceChildren(title, ...fields);
  }
}
