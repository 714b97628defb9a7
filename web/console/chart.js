// A bar, line or scatter chart of a result, drawn as inline SVG (no library): the user picks
// the y column (numeric) and the x column (any column, or the row number). Line and scatter
// put a numeric or date x on a scale; bars take x as labels.

import { isNumericType } from './results.js';

const SVG = 'http://www.w3.org/2000/svg';
const MAX_POINTS = { bar: 1000, line: 5000, scatter: 5000 };
const WIDTH = 900;
const HEIGHT = 320;
const MARGIN = { top: 16, right: 16, bottom: 48, left: 72 };
const DATE_TYPE = /^(Nullable\()?(Date|Timestamp)/;
export const ROW_NUMBER = 'row';

/** Indices of the numeric columns of a schema. */
export function numericColumns(schema) {
  return schema.map((field, i) => (isNumericType(field.type) ? i : -1)).filter((i) => i >= 0);
}

/** The axes a result suggests: {x, y} (x a column index or ROW_NUMBER, y a column or -1). A
 * text or date column is the x; else, with two numeric columns, the first is x (a key) and
 * the second y. */
export function defaultAxes(schema) {
  const numeric = numericColumns(schema);
  if (!numeric.length) return { x: ROW_NUMBER, y: -1 };
  const label = schema.findIndex((field) => !isNumericType(field.type));
  if (label >= 0) return { x: label, y: numeric[0] };
  if (numeric.length >= 2) return { x: numeric[0], y: numeric[1] };
  return { x: ROW_NUMBER, y: numeric[0] };
}

function node(name, attributes = {}, text = null) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== null) element.textContent = text;
  return element;
}

/** A round step for about 5 ticks over [low, high]. */
function tickStep(low, high) {
  const span = high - low;
  const magnitude = 10 ** Math.floor(Math.log10(span / 5));
  return [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => span / s <= 5) || span / 5;
}

function ticks(low, high, step) {
  const values = [];
  for (let v = Math.ceil(low / step - 1e-9) * step; v <= high + step * 1e-9; v += step) {
    values.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  }
  return values;
}

function shortNumber(value) {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${+(value / 1e9).toPrecision(3)}G`;
  if (abs >= 1e6) return `${+(value / 1e6).toPrecision(3)}M`;
  if (abs >= 1e4) return `${+(value / 1e3).toPrecision(3)}k`;
  return String(+value.toPrecision(4));
}

/** A linear scale over the finite `values` ({low, high, step}), 0 included when `withZero`. */
function scaleOf(values, withZero) {
  const finite = values.filter(Number.isFinite);
  let low = finite.length ? Math.min(...finite) : 0;
  let high = finite.length ? Math.max(...finite) : 1;
  if (withZero) {
    low = Math.min(0, low);
    high = Math.max(0, high);
  }
  if (high === low) high = low + 1;
  const step = tickStep(low, high);
  return { low: Math.floor(low / step + 1e-9) * step, high: Math.ceil(high / step - 1e-9) * step,
    step };
}

function xValue(schema, x, row, i) {
  if (x === ROW_NUMBER) return i + 1;
  const value = row[x];
  if (value === null) return NaN;
  return DATE_TYPE.test(schema[x].type) ? Date.parse(value.replace(' ', 'T')) : Number(value);
}

function label(schema, x, row, i) {
  return x === ROW_NUMBER ? String(i + 1) : String(row[x] ?? 'NULL');
}

/**
 * Draw `kind` ('bar', 'line' or 'scatter') of column `y` against `x` (a column or ROW_NUMBER)
 * into `container`; returns the number of points drawn.
 */
export function drawChart(container, schema, rows, { kind, x, y }) {
  const shown = rows.slice(0, MAX_POINTS[kind] || 1000);
  const ys = shown.map((row) => (row[y] === null ? NaN : Number(row[y])));
  const labels = shown.map((row, i) => label(schema, x, row, i));
  const onScale = kind !== 'bar' && (x === ROW_NUMBER || isNumericType(schema[x].type)
    || DATE_TYPE.test(schema[x].type));
  const xs = onScale ? shown.map((row, i) => xValue(schema, x, row, i)) : null;
  const yScale = scaleOf(ys, kind === 'bar');
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const py = (v) => MARGIN.top + plotHeight * (1 - (v - yScale.low) / (yScale.high - yScale.low));
  let px;
  let xScale = null;
  if (onScale) {
    xScale = scaleOf(xs, false);
    px = (i) => MARGIN.left + plotWidth * ((xs[i] - xScale.low) / (xScale.high - xScale.low));
  } else {
    const slot = plotWidth / Math.max(ys.length, 1);
    px = (i) => MARGIN.left + slot * (i + 0.5);
  }
  const xName = x === ROW_NUMBER ? 'row' : schema[x].name;
  const svg = node('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chart-svg', role: 'img',
    'data-kind': kind, 'data-points': ys.length,
    'aria-label': `${kind} chart of ${schema[y].name} by ${xName}`,
  });
  for (const tick of ticks(yScale.low, yScale.high, yScale.step)) {
    svg.append(node('line', { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: py(tick),
      y2: py(tick), class: 'grid' }));
    svg.append(node('text', { x: MARGIN.left - 8, y: py(tick) + 4, class: 'tick y-tick' },
      shortNumber(tick)));
  }
  const base = kind === 'bar' ? 0 : yScale.low;
  svg.append(node('line', { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: py(base),
    y2: py(base), class: 'axis' }));
  const tip = (i) => node('title', {}, `${labels[i]}: ${shown[i][y]}`);
  if (kind === 'bar') {
    const width = Math.max((plotWidth / Math.max(ys.length, 1)) * 0.8, 0.5);
    ys.forEach((value, i) => {
      if (!Number.isFinite(value)) return;
      const bar = node('rect', { x: px(i) - width / 2, y: Math.min(py(value), py(0)), width,
        height: Math.max(Math.abs(py(value) - py(0)), 0.5), class: 'bar' });
      bar.append(tip(i));
      svg.append(bar);
    });
  } else {
    const drawn = ys.map((_, i) => i).filter((i) => Number.isFinite(ys[i])
      && (!xs || Number.isFinite(xs[i])));
    if (kind === 'line') {
      if (xs) drawn.sort((a, b) => xs[a] - xs[b]);
      svg.append(node('polyline', { class: 'line',
        points: drawn.map((i) => `${px(i).toFixed(1)},${py(ys[i]).toFixed(1)}`).join(' ') }));
    }
    if (kind === 'scatter' || drawn.length <= 100) {
      for (const i of drawn) {
        const dot = node('circle', { cx: px(i), cy: py(ys[i]), r: kind === 'scatter' ? 2.5 : 3,
          class: 'dot' });
        dot.append(tip(i));
        svg.append(dot);
      }
    }
  }
  if (xScale) {
    const isDate = x !== ROW_NUMBER && DATE_TYPE.test(schema[x].type);
    for (const tick of ticks(xScale.low, xScale.high, xScale.step)) {
      const at = MARGIN.left + plotWidth * ((tick - xScale.low) / (xScale.high - xScale.low));
      const text = isDate ? new Date(tick).toISOString().slice(0, 10) : shortNumber(tick);
      svg.append(node('text', { x: at, y: HEIGHT - MARGIN.bottom + 18, class: 'tick x-tick' },
        text));
    }
  } else {
    const every = Math.max(1, Math.ceil(ys.length / 12));
    for (let i = 0; i < ys.length; i += every) {
      const text = labels[i].length > 14 ? `${labels[i].slice(0, 13)}…` : labels[i];
      svg.append(node('text', { x: px(i), y: HEIGHT - MARGIN.bottom + 18, class: 'tick x-tick' },
        text));
    }
  }
  const caption = document.createElement('p');
  caption.className = 'chart-caption';
  const part = rows.length > shown.length
    ? ` (first ${shown.length} of ${rows.length} rows)` : '';
  caption.textContent = `${schema[y].name} by ${xName}${part}`;
  container.replaceChildren(svg, caption);
  return ys.length;
}
