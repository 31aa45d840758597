// Hand-written: the status page is one small HTML page and its script, with no build step of their own; uPlot draws the charts.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { StatusHistory } from './history.js';
import type { MetricsJson } from './figures.js';

/** The page: its markup and style; the charts come from status/app.js. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lookup Graph status</title>
<link rel="stylesheet" href="status/uPlot.min.css">
<style>
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; background: #f3f4f6; color: #111827; }
  header { padding: 12px 16px; background: #111827; color: #f9fafb; display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: baseline; }
  header h1 { font-size: 1.1rem; margin: 0; }
  header .muted { color: #9ca3af; font-size: .85rem; }
  #state { display: flex; flex-wrap: wrap; gap: 6px; padding: 10px 16px; }
  .badge { font-size: .8rem; padding: 3px 8px; border-radius: 999px; background: #e5e7eb; }
  .badge.ok { background: #dcfce7; color: #166534; }
  .badge.warn { background: #fef3c7; color: #92400e; }
  .badge.bad { background: #fee2e2; color: #991b1b; font-weight: 600; }
  main { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 420px), 1fr)); gap: 12px; padding: 0 16px 16px; }
  section { background: #fff; border-radius: 8px; padding: 10px 12px; box-shadow: 0 1px 2px rgba(0,0,0,.08); min-width: 0; }
  section h2 { font-size: .95rem; margin: 0 0 6px; }
  .plot { width: 100%; overflow: hidden; }
  .muted { color: #6b7280; font-size: .85rem; }
  .bar-row { display: grid; grid-template-columns: minmax(70px, 9em) 1fr; gap: 2px 8px; align-items: center; margin: 6px 0; font-size: .85rem; }
  .bar-label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-weight: 600; }
  .bar-track { height: 14px; background: #e5e7eb; border-radius: 4px; overflow: hidden; }
  .bar-fill { display: block; height: 100%; background: #2563eb; }
  .bar-fill.ok { background: #16a34a; } .bar-fill.warn { background: #d97706; } .bar-fill.bad { background: #dc2626; }
  .bar-value { grid-column: 2; color: #4b5563; font-size: .78rem; }
  #offline { background: #fee2e2; color: #991b1b; padding: 6px 16px; margin: 0; }
</style>
</head>
<body>
<header><h1>Lookup Graph</h1><span class="muted" id="version"></span><span class="muted">updated <span id="updated">-</span>, every 5 s, last 10 minutes</span></header>
<p id="offline" hidden>The gateway does not answer: these figures are stale.</p>
<div id="state"></div>
<main>
  <section data-chart="requests"><h2>Requests per second</h2><div class="plot"></div></section>
  <section data-chart="latency"><h2>Latency (p50, p99)</h2><div class="plot"></div></section>
  <section data-chart="errors"><h2>Errors by code</h2><div class="plot"></div></section>
  <section data-chart="calls"><h2>Paid upstream calls per action</h2><div class="plot"></div></section>
  <section><h2>Upstream call outcomes (since start)</h2><div id="outcomes"></div></section>
  <section data-chart="answered"><h2>Lookups by where the value came from</h2><div class="plot"></div><p class="muted" id="saved"></p></section>
  <section><h2>Quotas per client</h2><div id="quotas"></div></section>
  <section data-chart="eventloop"><h2>Event-loop delay (longest)</h2><div class="plot"></div></section>
  <section data-chart="gc"><h2>Time in GC pauses</h2><div class="plot"></div></section>
  <section data-chart="memory"><h2>Memory</h2><div class="plot"></div></section>
</main>
<script src="status/uPlot.iife.min.js"></script>
<script src="status/app.js"></script>
</body>
</html>
`;

/** The page's script: reads status.json every five seconds and draws it. */
const APP = `'use strict';
(function () {
  var PALETTE = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#ea580c', '#4b5563', '#0d9488', '#9333ea'];
  var charts = {};
  var every = 5000;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var key in attrs || {}) node.setAttribute(key, attrs[key]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function widthOf(box) {
    return Math.max(240, Math.floor(box.clientWidth));
  }

  /** Draws (or redraws with new data) one chart: its series are the keys of lines, in order. */
  function chart(id, t, lines, unit) {
    var box = document.querySelector('[data-chart="' + id + '"] .plot');
    var names = Object.keys(lines);
    var signature = names.join('|');
    var data = [t].concat(names.map(function (name) { return lines[name]; }));
    var entry = charts[id];
    if (entry && entry.signature !== signature) {
      entry.plot.destroy();
      entry = null;
    }
    if (!entry) {
      var opts = {
        width: widthOf(box),
        height: 180,
        series: [{}].concat(names.map(function (name, i) {
          return { label: name, stroke: PALETTE[i % PALETTE.length], width: 2, spanGaps: false, value: function (u, v) { return v == null ? '-' : v + unit; } };
        })),
        axes: [{}, { size: 72, values: function (u, ticks) { return ticks.map(function (v) { return v + unit; }); } }],
        scales: { y: { range: function (u, min, max) { return [0, max > 0 ? max * 1.1 : 1]; } } },
        legend: { live: true },
      };
      entry = { signature: signature, plot: new uPlot(opts, data, box) };
      charts[id] = entry;
    } else {
      entry.plot.setData(data);
    }
    var card = box.closest('[data-chart]');
    card.setAttribute('data-points', String(t.length));
    card.setAttribute('data-last', JSON.stringify(names.map(function (name) { var v = lines[name]; return v.length ? v[v.length - 1] : null; })));
  }

  function badge(holder, text, level) {
    holder.appendChild(el('span', { class: 'badge ' + level, 'data-state': text }, text));
  }

  function fmtSeconds(s) {
    if (s < 90) return Math.round(s) + ' s';
    if (s < 5400) return Math.round(s / 60) + ' min';
    if (s < 172800) return Math.round(s / 3600) + ' h';
    return Math.round(s / 86400) + ' d';
  }

  function state(report) {
    var holder = document.getElementById('state');
    holder.textContent = '';
    var s = report.state;
    badge(holder, s.ready === false ? 'not ready' : 'ready', s.ready === false ? 'bad' : 'ok');
    badge(holder, s.holding ? 'upstream hold in force' : 'no upstream hold', s.holding ? 'bad' : 'ok');
    badge(holder, s.breakersOpen.length ? 'breaker open: ' + s.breakersOpen.join(', ') : 'breakers closed', s.breakersOpen.length ? 'bad' : 'ok');
    badge(holder, s.overloaded ? 'shedding lookups' : 'not shedding', s.overloaded ? 'warn' : 'ok');
    badge(holder, s.eventLoopShedding ? 'refusing for event-loop delay' : 'event loop keeping up', s.eventLoopShedding ? 'warn' : 'ok');
    var uses = Object.keys(s.redis);
    if (!uses.length) badge(holder, 'no Redis', 'none');
    uses.forEach(function (use) { badge(holder, 'Redis ' + use + (s.redis[use] ? ' up' : ' unreachable'), s.redis[use] ? 'ok' : 'bad'); });
    badge(holder, s.inFlight + ' in flight, ' + s.queued + ' queued', 'none');
  }

  function bars(holderId, rows) {
    var holder = document.getElementById(holderId);
    holder.textContent = '';
    if (!rows.length) holder.appendChild(el('p', { class: 'muted' }, 'none yet'));
    rows.forEach(function (row) {
      var line = el('div', Object.assign({ class: 'bar-row' }, row.attrs || {}));
      line.appendChild(el('span', { class: 'bar-label' }, row.label));
      var track = el('span', { class: 'bar-track' });
      var fill = el('span', { class: 'bar-fill ' + (row.level || '') });
      fill.style.width = Math.min(100, Math.max(0, row.share * 100)).toFixed(1) + '%';
      track.appendChild(fill);
      line.appendChild(track);
      line.appendChild(el('span', { class: 'bar-value' }, row.value));
      holder.appendChild(line);
    });
  }

  function render(report) {
    document.getElementById('version').textContent = 'v' + report.version;
    document.getElementById('updated').textContent = new Date(report.at).toLocaleTimeString();
    state(report);
    var t = report.t;
    chart('requests', t, { 'requests/s': report.requestsPerSecond }, '');
    chart('latency', t, { p50: report.p50Ms, p99: report.p99Ms }, ' ms');
    chart('errors', t, Object.keys(report.errorsPerSecond).length ? report.errorsPerSecond : { 'no errors': t.map(function () { return 0; }) }, '/s');
    chart('calls', t, Object.keys(report.callsPerSecond).length ? report.callsPerSecond : { 'no calls': t.map(function () { return 0; }) }, '/s');
    chart('answered', t, report.lookupsPerSecond, '/s');
    chart('eventloop', t, { 'max delay': report.eventLoopMaxMs }, ' ms');
    chart('gc', t, { 'GC pause share': report.gcPauseShare.map(function (v) { return v == null ? null : Number((v * 100).toFixed(2)); }) }, '%');
    chart('memory', t, { resident: report.residentMb, heap: report.heapUsedMb }, ' MB');

    var a = report.answered;
    document.getElementById('saved').textContent = a.savedShare == null
      ? 'No lookups yet.'
      : a.savedCalls + ' calls saved: ' + Math.round(a.savedShare * 100) + '% of lookups answered by the cache or by joining another call (' + a.replays + ' operations replayed whole).';

    var outcomes = report.callOutcomes;
    var total = Object.keys(outcomes).reduce(function (sum, k) { return sum + outcomes[k]; }, 0);
    bars('outcomes', Object.keys(outcomes).sort().map(function (outcome) {
      return { label: outcome, share: total ? outcomes[outcome] / total : 0, value: String(outcomes[outcome]), level: outcome === 'OK' ? 'ok' : 'bad', attrs: { 'data-outcome': outcome } };
    }));

    var now = report.at;
    bars('quotas', report.quotas.map(function (q) {
      var used = q.remaining == null ? 0 : q.limit - q.remaining;
      var share = q.limit ? used / q.limit : 0;
      return {
        label: q.client,
        share: share,
        value: used + ' / ' + q.limit + ' a ' + q.window + ', resets in ' + fmtSeconds((q.resetAt - now) / 1000),
        level: share >= 1 ? 'bad' : share >= 0.8 ? 'warn' : 'ok',
        attrs: { 'data-client': q.client, 'data-used': String(used), 'data-limit': String(q.limit) },
      };
    }));
    document.body.setAttribute('data-updated', String(report.at));
  }

  function refresh() {
    fetch('status.json', { cache: 'no-store' })
      .then(function (res) { if (!res.ok) throw new Error(res.status); return res.json(); })
      .then(function (report) { document.getElementById('offline').hidden = true; render(report); })
      .catch(function () { document.getElementById('offline').hidden = false; })
      .then(function () { setTimeout(refresh, every); });
  }

  window.addEventListener('resize', function () {
    Object.keys(charts).forEach(function (id) {
      var box = document.querySelector('[data-chart="' + id + '"] .plot');
      charts[id].plot.setSize({ width: widthOf(box), height: 180 });
    });
  });
  refresh();
})();
`;

const require = createRequire(import.meta.url);
/** uPlot, served from the gateway's own node_modules: no CDN, works offline. */
const ASSETS: Record<string, { type: string; body: string }> = {
  '/status': { type: 'text/html; charset=utf-8', body: PAGE },
  '/status/app.js': { type: 'text/javascript; charset=utf-8', body: APP },
  '/status/uPlot.iife.min.js': {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
  },
  '/status/uPlot.min.css': {
    type: 'text/css; charset=utf-8',
    body: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
  },
};

/** The page may load only its own files and read only its own figures. */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export interface StatusAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The status page of the metrics listener: /status, its script and uPlot, and /status.json, the figures
 * read from `source` (the registry /metrics serves; the primary's sum over the workers of WORKERS).
 */
export function createStatusPage(source: () => Promise<MetricsJson>): {
  answer(pathname: string, method: string): Promise<StatusAnswer | null>;
  close(): void;
} {
  const history = new StatusHistory(source);
  return {
    async answer(pathname, method) {
      if (method !== 'GET' && method !== 'HEAD') return null;
      if (pathname === '/status.json') {
        return {
          status: 200,
          headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...SECURITY_HEADERS },
          body: JSON.stringify(await history.report()),
        };
      }
      const asset = ASSETS[pathname];
      if (!asset) return null;
      return {
        status: 200,
        headers: { 'content-type': asset.type, 'cache-control': 'no-cache', ...SECURITY_HEADERS },
        body: asset.body,
      };
    },
    close: () => history.stop(),
  };
}
