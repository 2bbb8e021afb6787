import { scaleLinear, scaleUtc } from 'd3-scale';
import { curveStepAfter, line } from 'd3-shape';
import { utcFormat } from 'd3-time-format';
import type { ChartLine, PriceChart } from '../../catalog/chart-service.js';

/** Line colours by price rank (Tableau 10 without its red, which marks the lowest price). */
const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#17becf', '#b07aa1', '#76b7b2', '#edc948', '#9c755f'];
const FONT = 'DejaVu Sans, Liberation Sans, Arial, sans-serif';
const LEGEND_ENTRY = 200;
/** About the advance of a 12 px DejaVu Sans character (digits are 7.6 px): what text is fitted by. */
const CHAR = 7.2;

/** Text and attribute values as XML: catalog text (titles, platform keys) is never markup. */
export function xmlText(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const fit = (s: string, chars: number) => (s.length <= chars ? s : `${s.slice(0, Math.max(1, chars - 1))}…`);

function text(x: number, y: number, body: string, attrs = ''): string {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}"${attrs ? ` ${attrs}` : ''}>${xmlText(body)}</text>`;
}

/** The y domain: every price drawn, padded so a flat line sits inside the plot. */
function priceDomain(lines: ChartLine[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const l of lines) {
    for (const p of l.points) {
      // The pixel is the only place a price becomes a float.
      const v = Number(p.price);
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (lo === hi) return [lo === 0 ? 0 : lo * 0.95, hi === 0 ? 1 : hi * 1.05];
  return [lo, hi];
}

/**
 * The chart as an SVG document: d3 scales place every price and date, d3-shape draws each offer's
 * prices as a step line (a price holds until the next observation), ticks come from the scales.
 */
export function chartSvg(chart: PriceChart, size: { width: number; height: number }): string {
  const { width, height } = size;
  const perRow = Math.max(1, Math.floor((width - 80) / LEGEND_ENTRY));
  // The plot keeps at least 80 px: a small chart lists the cheapest offers only (every line is still drawn).
  const legendRows = Math.min(Math.ceil(chart.lines.length / perRow), Math.max(0, Math.floor((height - 52 - 44 - 80) / 18)));
  const legend = chart.lines.slice(0, legendRows * perRow);
  const m = { top: 52, right: 24, bottom: 44 + legendRows * 18, left: 0 };
  const plotH = Math.max(10, height - m.top - m.bottom);
  const y = scaleLinear().domain(priceDomain(chart.lines)).nice().range([m.top + plotH, m.top]);
  const yCount = Math.max(2, Math.floor(plotH / 45));
  const yTicks = y.ticks(yCount);
  // Fixed-point with as many decimals as the tick step needs (d3-format picks them for `f`).
  const yLabel = y.tickFormat(yCount, ',f');
  // Room for the widest price label beside the axis title (VND and IDR amounts run to 11 characters).
  m.left = Math.round(Math.max(56, 36 + CHAR * Math.max(...yTicks.map((t) => yLabel(t).length))));
  const plotW = Math.max(10, width - m.left - m.right);
  // Clamped: the price in force at the window's start is dated at (a few ms around) the start.
  const x = scaleUtc().domain([new Date(chart.from), new Date(chart.to)]).range([m.left, m.left + plotW]).clamp(true);
  const path = line<{ price: string; at: string }>().x((p) => x(new Date(p.at))).y((p) => y(Number(p.price))).curve(curveStepAfter).digits(1);
  const xTicks = x.ticks(Math.max(2, Math.floor(plotW / 90)));
  const xLabel = utcFormat(chart.days <= 2 ? '%H:%M' : '%b %-d');
  const bottom = m.top + plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}" font-size="12" role="img">`,
    `<title>${xmlText(`${chart.listing.title}: price in ${chart.currency} over ${chart.days} days`)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    text(16, 22, fit(chart.listing.title, Math.floor((width - 32) / (CHAR * 1.25))), 'font-size="14" font-weight="bold" fill="#222" class="chart-title"'),
    text(16, 40, fit(`Price in ${chart.currency}, last ${chart.days} day${chart.days === 1 ? '' : 's'} to ${utcFormat('%b %-d, %Y')(new Date(chart.to))} (UTC)`, Math.floor((width - 32) / CHAR)), 'fill="#555" class="chart-subtitle"'),
    '<g class="axis y-axis">',
    ...yTicks.flatMap((t) => [
      `<line x1="${m.left}" x2="${m.left + plotW}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" stroke="#e6e6e6"/>`,
      text(m.left - 8, y(t) + 4, yLabel(t), 'text-anchor="end" fill="#444" class="tick"'),
    ]),
    `<line x1="${m.left}" x2="${m.left}" y1="${m.top}" y2="${bottom}" stroke="#888"/>`,
    text(16, m.top + plotH / 2, chart.currency, `text-anchor="middle" fill="#444" transform="rotate(-90 16 ${(m.top + plotH / 2).toFixed(1)})" class="axis-label"`),
    '</g>',
    '<g class="axis x-axis">',
    `<line x1="${m.left}" x2="${m.left + plotW}" y1="${bottom}" y2="${bottom}" stroke="#888"/>`,
    ...xTicks.flatMap((t) => [
      `<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${bottom}" y2="${bottom + 5}" stroke="#888"/>`,
      text(x(t), bottom + 18, xLabel(t), 'text-anchor="middle" fill="#444" class="tick"'),
    ]),
    '</g>',
  ];
  chart.lines.forEach((l, i) => {
    out.push(`<path class="offer${l.asked ? ' asked' : ''}" data-listing-id="${l.listing.id}" d="${path(l.points) ?? ''}" fill="none" `
      + `stroke="${PALETTE[i % PALETTE.length]}" stroke-width="${l.asked ? 2.5 : 1.5}" stroke-linejoin="round"/>`);
  });
  const low = { x: x(new Date(chart.to)), y: y(Number(chart.lowest.current)) };
  const full = `Lowest now: ${chart.lowest.current} ${chart.currency} (${chart.lowest.listing.source})`;
  const bold = CHAR * 1.12;
  const lowText = full.length * bold < width - 24 ? full : `Lowest: ${chart.lowest.current}`;
  // Right-aligned left of the mark, but never past the image's left edge; below it when there is room,
  // where only past prices can be (it is the lowest current one).
  const lowX = Math.max(low.x - 8, 8 + lowText.length * bold);
  out.push(
    `<g class="lowest" data-listing-id="${chart.lowest.listing.id}">`,
    `<circle cx="${low.x.toFixed(1)}" cy="${low.y.toFixed(1)}" r="5" fill="#ffffff" stroke="#d62728" stroke-width="2"/>`,
    text(lowX, low.y + 22 < bottom ? low.y + 18 : low.y - 9, lowText, 'text-anchor="end" font-weight="bold" fill="#d62728" paint-order="stroke" stroke="#ffffff" stroke-width="3"'),
    '</g>',
  );
  out.push('<g class="legend">');
  legend.forEach((l, i) => {
    const lx = m.left + (i % perRow) * LEGEND_ENTRY;
    const ly = bottom + 36 + Math.floor(i / perRow) * 18;
    out.push(
      `<line x1="${lx}" x2="${lx + 18}" y1="${ly - 4}" y2="${ly - 4}" stroke="${PALETTE[i % PALETTE.length]}" stroke-width="${l.asked ? 3 : 2}"/>`,
      text(lx + 24, ly, fit(`${l.listing.source} ${l.current}`, 26), `fill="#333"${l.asked ? ' font-weight="bold"' : ''}`),
    );
  });
  out.push('</g>', '</svg>');
  return out.join('\n');
}
