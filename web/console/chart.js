// A bar or line chart of one numeric column of a result, drawn as inline SVG (no library):
// values on the y axis, the first other text column (or the row number) as labels.

import { isNumericType } from './results.js';

const SVG = 'http://www.w3.org/2000/svg';
const MAX_POINTS = 1000;
const WIDTH = 900;
const HEIGHT = 320;
const MARGIN = { top: 16, right: 16, bottom: 48, left: 72 };

/** Indices of the numeric columns of a schema. */
export function numericColumns(schema) {
  return schema.map((field, i) => (isNumericType(field.type) ? i : -1)).filter((i) => i >= 0);
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

/** The tick values from `low` to `high`, every `step`. */
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

/**
 * Draw `kind` ('bar' or 'line') of column `column` of `rows` into `container`; returns the
 * number of points drawn.
 */
export function drawChart(container, schema, rows, { kind, column }) {
  const shown = rows.slice(0, MAX_POINTS);
  const values = shown.map((row) => (row[column] === null ? NaN : Number(row[column])));
  const labelColumn = schema.findIndex((field, i) => i !== column && !isNumericType(field.type));
  const labels = shown.map((row, i) => (labelColumn >= 0 ? String(row[labelColumn] ?? 'NULL')
    : String(i + 1)));
  const finite = values.filter(Number.isFinite);
  let low = Math.min(0, ...finite);
  let high = Math.max(0, ...finite);
  if (high === low) high = low + 1;
  const step = tickStep(low, high);
  low = Math.floor(low / step + 1e-9) * step; // the axis ends on ticks
  high = Math.ceil(high / step - 1e-9) * step;

  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const y = (v) => MARGIN.top + plotHeight * (1 - (v - low) / (high - low));
  const slot = plotWidth / Math.max(values.length, 1);
  const x = (i) => MARGIN.left + slot * (i + 0.5);

  const svg = node('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chart-svg', role: 'img',
    'data-kind': kind, 'data-points': values.length,
    'aria-label': `${kind} chart of ${schema[column].name}`,
  });
  for (const tick of ticks(low, high, step)) {
    svg.append(node('line', { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(tick),
      y2: y(tick), class: 'grid' }));
    svg.append(node('text', { x: MARGIN.left - 8, y: y(tick) + 4, class: 'tick y-tick' },
      shortNumber(tick)));
  }
  svg.append(node('line', { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(0), y2: y(0),
    class: 'axis' }));

  if (kind === 'bar') {
    const width = Math.max(slot * 0.8, 0.5);
    values.forEach((value, i) => {
      if (!Number.isFinite(value)) return;
      const top = Math.min(y(value), y(0));
      const bar = node('rect', { x: x(i) - width / 2, y: top, width,
        height: Math.max(Math.abs(y(value) - y(0)), 0.5), class: 'bar' });
      bar.append(node('title', {}, `${labels[i]}: ${shown[i][column]}`));
      svg.append(bar);
    });
  } else {
    const points = [];
    values.forEach((value, i) => {
      if (Number.isFinite(value)) points.push(`${x(i).toFixed(1)},${y(value).toFixed(1)}`);
    });
    svg.append(node('polyline', { points: points.join(' '), class: 'line' }));
    if (values.length <= 100) {
      values.forEach((value, i) => {
        if (!Number.isFinite(value)) return;
        const dot = node('circle', { cx: x(i), cy: y(value), r: 3, class: 'dot' });
        dot.append(node('title', {}, `${labels[i]}: ${shown[i][column]}`));
        svg.append(dot);
      });
    }
  }
  const every = Math.max(1, Math.ceil(values.length / 12));
  for (let i = 0; i < values.length; i += every) {
    const text = labels[i].length > 14 ? `${labels[i].slice(0, 13)}…` : labels[i];
    svg.append(node('text', { x: x(i), y: HEIGHT - MARGIN.bottom + 18, class: 'tick x-tick' },
      text));
  }
  const caption = document.createElement('p');
  caption.className = 'chart-caption';
  const by = labelColumn >= 0 ? ` by ${schema[labelColumn].name}` : ' by row';
  const part = rows.length > shown.length
    ? ` (first ${shown.length} of ${rows.length} rows)` : '';
  caption.textContent = `${schema[column].name}${by}${part}`;
  container.replaceChildren(svg, caption);
  return values.length;
}
