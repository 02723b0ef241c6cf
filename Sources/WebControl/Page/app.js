// The page: sign-in, then what plays now (with a position bar that moves between events), the queue, adding
// URLs and uploads, overlays, health and a live preview. Everything is asked of the daemon through
// queued-web; the WebSocket's events say when to ask again. Text from the queue is only ever set as text.

import { Api, EventLink } from './link.js';
import { QueueView, formatSeconds } from './queue.js';

const api = new Api();
const $ = (id) => document.getElementById(id);
let queue;
let link;
let status = null;
let statusAt = 0;
let seeking = false;
let previewTimer = null;
let reloadTimer = null;

function say(text) {
  const banner = $('banner');
  banner.textContent = text;
  banner.hidden = !text;
}

function show(signedIn) {
  $('signin').hidden = signedIn;
  $('app').hidden = !signedIn;
  if (!signedIn) $('secret').focus();
}

function setLinkState(state) {
  const text = { live: 'live', 'daemon-away': 'the daemon is not running', reconnecting: 'disconnected: reconnecting…' }[state];
  $('link-state').textContent = text;
  $('link-state').className = 'link-' + state;
  document.body.classList.toggle('offline', state !== 'live');
}

// MARK: now playing

function position() {
  if (!status) return 0;
  const running = status.state === 'playing' && !status.buffering;
  const moved = running ? ((performance.now() - statusAt) / 1000) * (status.rate || 1) : 0;
  return Math.min(status.duration ?? Infinity, status.position + moved);
}

function drawNow() {
  if (!status) return;
  const title = status.title || (status.uri ? status.uri.split('/').pop() : 'Nothing is playing');
  $('now-title').textContent = title;
  const loops = status.loops == null ? '' : status.loops === 0 ? 'loops forever' : `play ${status.play} of ${status.loops}`;
  $('now-detail').textContent = [status.state, loops, status.interrupt ? 'interrupt' : '', streamText(status.stream), webText(status.web), status.error ? 'error: ' + status.error : ''].filter(Boolean).join(' · ');
  $('toggle').textContent = status.state === 'playing' ? 'Pause' : 'Play';
  if (document.activeElement !== $('volume')) $('volume').value = String(status.volume);
  drawPosition();
}

/// A web page's play in words: its title (or its address) and whether it finished loading.
function webText(web) {
  if (!web) return '';
  return `web page: ${web.title || web.url}${web.loaded ? '' : ' (loading)'}`;
}

/// A stream's play in words: live or on demand, down (reconnecting) or its latency, and how often it dropped.
function streamText(stream) {
  if (!stream) return '';
  const parts = [stream.live ? 'live stream' : 'on-demand stream'];
  if (stream.down) parts.push('down: reconnecting');
  else if (stream.latency != null) parts.push(`latency ${stream.latency.toFixed(1)} s`);
  if (stream.stalls) parts.push(stream.stalls === 1 ? 'dropped once' : `dropped ${stream.stalls} times`);
  return parts.join(', ');
}

function drawPosition() {
  if (!status || seeking) return;
  const now = position();
  $('pos-text').textContent = `${formatSeconds(now)} / ${formatSeconds(status.duration)}`;
  $('position').disabled = !status.duration;
  $('position').value = status.duration ? String(Math.round((1000 * now) / status.duration)) : '0';
}

async function refreshStatus() {
  try {
    status = await api.rpc('player.status');
    statusAt = performance.now();
    drawNow();
    drawNextUp();
  } catch (error) { say(error.message); }
}

function drawNextUp() {
  const items = queue?.items || [];
  const index = items.findIndex((item) => item.id === status?.currentId);
  const next = index >= 0 ? items[index + 1] : null;
  $('next-up').textContent = next ? 'Next: ' + (next.title || next.uri.split('/').pop()) : '';
}

// MARK: preview: asked only while the page is visible, every 1.5 s and right after an item starts

async function refreshPreview() {
  clearTimeout(previewTimer);
  if (document.visibilityState !== 'visible' || $('app').hidden) return;
  try {
    const response = await fetch('/api/preview.jpg?maxWidth=480', { cache: 'no-store', credentials: 'same-origin' });
    if (response.ok) {
      const url = URL.createObjectURL(await response.blob());
      const image = $('preview');
      const old = image.src;
      image.src = url;
      image.onload = placeZoneMap;
      if (old.startsWith('blob:')) URL.revokeObjectURL(old);
    }
  } catch (_) { /* the next try will do */ }
  previewTimer = setTimeout(refreshPreview, 1500);
}

// MARK: zones: the layout drawn over the preview; choosing a zone shows its status and queue

let layout = null;

/// A zone's length in the output's pixels: a number is pixels, "75%" a share of `extent`.
function resolve(length, extent) {
  return typeof length === 'string' && length.endsWith('%') ? (parseFloat(length) / 100) * extent : Number(length);
}

let layoutAsked = null;

/// layout.get, one request at a time (events of an unknown zone may come in a burst).
function refreshLayout() {
  layoutAsked ??= api.rpc('layout.get').then((got) => { layout = got; }, () => {}).finally(() => { layoutAsked = null; drawZones(); });
  return layoutAsked;
}

/// Puts the zone map over the picture itself: the preview is fitted (object-fit: contain) into its box.
function placeZoneMap() {
  const image = $('preview');
  const map = $('zone-map');
  const box = image.getBoundingClientRect(), screen = $('screen').getBoundingClientRect();
  const aspect = image.naturalWidth && image.naturalHeight ? image.naturalWidth / image.naturalHeight
    : (layout?.width || 16) / (layout?.height || 9);
  const width = Math.min(box.width, box.height * aspect), height = width / aspect;
  Object.assign(map.style, {
    left: `${box.left - screen.left + (box.width - width) / 2}px`, top: `${box.top - screen.top + (box.height - height) / 2}px`,
    width: `${width}px`, height: `${height}px`, right: 'auto', bottom: 'auto',
  });
}

function drawZones() {
  placeZoneMap();
  const zones = layout?.zones || [];
  const width = layout?.width || 1920, height = layout?.height || 1080;
  if (!zones.some((zone) => zone.name === api.zone)) api.zone = null;
  const chosen = api.zone || 'main';
  $('zone-name').textContent = zones.length > 1 ? `— zone ${chosen}` : '';
  const boxes = zones.length > 1 ? zones.map((zone) => {
    const box = document.createElement('button');
    box.type = 'button';
    box.className = 'zone' + (zone.name === chosen ? ' chosen' : '');
    box.textContent = zone.name;
    box.setAttribute('aria-pressed', String(zone.name === chosen));
    box.setAttribute('aria-label', `Zone ${zone.name}${zone.rect ? '' : ' (music)'}`);
    if (zone.rect) {
      const x = resolve(zone.rect.x, width), y = resolve(zone.rect.y, height);
      Object.assign(box.style, {
        left: `${(100 * x) / width}%`, top: `${(100 * y) / height}%`,
        width: `${(100 * resolve(zone.rect.w, width)) / width}%`, height: `${(100 * resolve(zone.rect.h, height)) / height}%`,
        zIndex: String(1000 + (zone.z || 0)),
      });
    } else {
      box.id = 'zone-music';
      box.textContent = `♪ ${zone.name}`;
    }
    box.addEventListener('click', () => chooseZone(zone.name));
    return box;
  }) : [];
  $('zone-map').replaceChildren(...boxes.filter((box) => box.id !== 'zone-music'));
  const music = boxes.find((box) => box.id === 'zone-music');
  $('zone-music')?.remove();
  if (music) $('screen').append(music);
}

function chooseZone(name) {
  api.zone = name === 'main' ? null : name;
  queue.offset = 0;
  drawZones();
  refreshStatus();
  queue.load().then(drawNextUp, (e) => say(e.message));
}

// MARK: health and overlays

async function refreshHealth() {
  try {
    const [info, health, usage] = await Promise.all([api.rpc('daemon.info'), api.rpc('daemon.health'), api.rpc('cache.usage')]);
    const rows = [
      ['Version', info.version], ['Uptime', formatSeconds(health.uptime ?? info.uptime)],
      ['Frames shown', String(health.framesShown ?? 0)],
      ['Dropped frames', String(health.framesDropped ?? status?.droppedFrames ?? 0)],
      ['Items failed', String(health.itemsFailed ?? 0)],
      ['Stalls', String(health.stalls ?? 0)],
      ['Audio underruns', String(health.audioUnderruns ?? 0)],
      ['Cache', `${Math.round((usage.bytes || 0) / 1048576)} MiB` + (usage.cap ? ` of ${Math.round(usage.cap / 1048576)} MiB` : '')],
      ['Memory', health.rss ? `${Math.round(health.rss / 1048576)} MiB` : '–'],
    ];
    $('health-list').replaceChildren(...rows.flatMap(([name, value]) => {
      const term = document.createElement('dt'); term.textContent = name;
      const detail = document.createElement('dd'); detail.textContent = value ?? '–';
      return [term, detail];
    }));
  } catch (error) { say(error.message); }
}

async function refreshOverlays() {
  try {
    const { overlays } = await api.rpc('overlay.list');
    $('overlay-list').replaceChildren(...overlays.map((overlay) => {
      const row = document.createElement('li');
      const text = document.createElement('span');
      text.textContent = `${overlay.type}: ${overlay.text ?? overlay.format ?? overlay.path ?? ''}`;
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = 'Remove';
      remove.setAttribute('aria-label', `Remove overlay ${overlay.id}`);
      remove.addEventListener('click', () => api.rpc('overlay.remove', { ids: [overlay.id] }).then(refreshOverlays, (e) => say(e.message)));
      row.append(text, ' ', remove);
      return row;
    }));
  } catch (error) { say(error.message); }
}

// The alerts standing (each with Clear), a button per webhook trigger the daemon has, and its output rules
// (shown only: they run programs and set pins of the box, so they are set on the box itself).
async function refreshAlerts() {
  try {
    const { alerts, active } = await api.rpc('alert.list');
    $('alert-list').replaceChildren(...alerts.map((alert) => {
      const row = document.createElement('li');
      const text = document.createElement('span');
      text.textContent = `${alert.id === active ? 'on screen: ' : ''}${alert.text ?? alert.items.length + ' items'} (${alert.id}, priority ${alert.priority})`;
      const clear = document.createElement('button');
      clear.type = 'button';
      clear.textContent = 'Clear';
      clear.setAttribute('aria-label', `Clear alert ${alert.id}`);
      clear.addEventListener('click', () => api.rpc('alert.clear', { id: alert.id }).then(refreshAlerts, (e) => say(e.message)));
      row.append(text, ' ', clear);
      return row;
    }));
    const { triggers } = await api.rpc('triggers.list');
    const names = [...new Set(triggers.map((rule) => /^webhook=([A-Za-z0-9._-]+)/.exec(rule)?.[1]).filter(Boolean))];
    $('trigger-buttons').replaceChildren(...names.map((name) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Fire ' + name;
      button.addEventListener('click', () => api.rpc('triggers.fire', { name }).then(({ fired }) => say(`${name}: ${fired} rules fired`), (e) => say(e.message)));
      return button;
    }));
    const { outputs } = await api.rpc('outputs.list');
    $('output-rules').replaceChildren(...(outputs.length ? outputs : ['none']).map((rule) => {
      const row = document.createElement('li');
      row.textContent = rule;
      return row;
    }));
  } catch (error) { say(error.message); }
}

// MARK: events

function reloadQueueSoon() {
  clearTimeout(reloadTimer);
  reloadTimer = setTimeout(() => queue.load().then(drawNextUp, (e) => say(e.message)), 50);
}

/// The player's events, each about one zone (`zone`, absent for main); the others (cache, output) are the daemon's.
const ZONE_EVENTS = new Set(['event.status', 'event.progress', 'event.itemStarted', 'event.itemEnded', 'event.itemSkipped',
  'event.queueChanged', 'event.itemLoading', 'event.buffering', 'event.itemStalled', 'event.itemResumed']);

function onEvent(method, params) {
  // Every zone's events come: only the chosen zone's are this page's (main's carry no zone).
  if (ZONE_EVENTS.has(method) && params && (params.zone || null) !== (api.zone || null)) {
    if (method === 'event.itemStarted') refreshPreview();
    // A zone the page has not drawn: the layout changed (the fleet, queuectl).
    if (params.zone && layout && !layout.zones.some((zone) => zone.name === params.zone)) refreshLayout();
    return;
  }
  switch (method) {
    case 'daemon.connected':
      say('');
      refreshStatus(); reloadQueueSoon(); refreshOverlays(); refreshHealth(); refreshLayout();
      break;
    case 'event.status': {
      // Events carry no stream figures (latency, bitrate, pace: asked with player.status): the same play's
      // last ones stay until the next ask.
      const before = status;
      status = params; statusAt = performance.now();
      if (status.stream && before?.stream && before.currentId === status.currentId && before.play === status.play) {
        const { latency, bitrate, pace } = before.stream;
        status.stream = { ...status.stream, latency: status.stream.latency ?? latency, bitrate: status.stream.bitrate ?? bitrate, pace: status.stream.pace ?? pace };
      }
      drawNow(); drawNextUp();
      break;
    }
    case 'event.itemStarted':
      refreshStatus(); reloadQueueSoon(); refreshPreview();
      break;
    case 'event.itemStalled': case 'event.itemResumed':
      refreshStatus();
      break;
    case 'event.queueChanged': case 'event.itemEnded': case 'event.itemSkipped':
    case 'event.cacheComplete': case 'event.cacheError': case 'event.cacheProgress':
      reloadQueueSoon();
      break;
  }
}

// MARK: start

async function start() {
  show(true);
  queue = new QueueView($('queue'), api, say);
  link = new EventLink(onEvent, setLinkState);
  link.open();
  await Promise.all([refreshStatus(), queue.load(), refreshOverlays(), refreshHealth(), refreshLayout(), refreshAlerts()]);
  drawNextUp();
  refreshPreview();
}

function wire() {
  $('signin-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await api.signIn($('secret').value);
      $('secret').value = '';
      $('signin-error').textContent = '';
      await start();
    } catch (error) { $('signin-error').textContent = error.message; }
  });
  $('signout').addEventListener('click', async () => {
    try { await api.signOut(); } catch (_) { /* signed out anyway */ }
    link?.close();
    show(false);
  });
  const call = (method, params) => api.rpc(method, params).then(refreshStatus, (e) => say(e.message));
  $('prev').addEventListener('click', () => call('player.previous'));
  $('next').addEventListener('click', () => call('player.next'));
  $('toggle').addEventListener('click', () => call('player.toggle'));
  $('volume').addEventListener('change', () => call('player.set', { volume: Number($('volume').value) }));
  $('position').addEventListener('input', () => { seeking = true; $('pos-text').textContent = formatSeconds((Number($('position').value) / 1000) * (status?.duration || 0)); });
  $('position').addEventListener('change', () => {
    seeking = false;
    if (status?.duration) call('player.seek', { position: (Number($('position').value) / 1000) * status.duration });
  });
  $('page-prev').addEventListener('click', () => { queue.offset = Math.max(0, queue.offset - 100); queue.load(); });
  $('page-next').addEventListener('click', () => { queue.offset += 100; queue.load(); });
  $('add-url').addEventListener('submit', async (event) => {
    event.preventDefault();
    const item = { uri: $('url').value.trim() };
    if ($('sha').value.trim()) item.sha256 = $('sha').value.trim();
    if ($('duration').value.trim()) item.duration = Number($('duration').value);
    if ($('web-page').checked || $('web-keep').checked) {
      item.type = 'web';
      if ($('web-keep').checked) item.reload = 'keep';
    }
    try {
      await api.rpc('queue.add', { items: [item] });
      $('url').value = ''; $('sha').value = ''; $('duration').value = '';
      $('web-page').checked = false; $('web-keep').checked = false;
      say('');
    } catch (error) { say(error.message); }
  });
  $('upload-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    for (const file of $('files').files) {
      const row = document.createElement('li');
      const label = document.createElement('span');
      label.textContent = file.name + ' ';
      const bar = document.createElement('progress');
      bar.max = file.size || 1; bar.value = 0;
      bar.setAttribute('aria-label', `Upload of ${file.name}`);
      const note = document.createElement('span');
      row.append(label, bar, note);
      $('uploads').append(row);
      try {
        const stored = await api.upload(file, (sent, total) => { bar.max = total; bar.value = sent; });
        bar.value = bar.max;
        await api.rpc('queue.add', { items: [{ uri: stored.path, title: file.name }] });
        note.textContent = ' queued as ' + stored.name;
      } catch (error) { note.textContent = ' refused: ' + error.message; row.classList.add('failed'); }
    }
    $('files').value = '';
  });
  $('overlay-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const type = $('ov-type').value;
    const value = $('ov-text').value;
    const params = { type };
    if (type === 'image') params.path = value; else if (type === 'clock') { if (value) params.format = value; } else params.text = value;
    try { await api.rpc('overlay.add', params); $('ov-text').value = ''; await refreshOverlays(); } catch (error) { say(error.message); }
  });
  $('alert-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = $('alert-text').value.trim();
    if (!text) return;
    try { await api.rpc('alert.raise', { id: 'page-' + Date.now(), text, priority: 0 }); $('alert-text').value = ''; await refreshAlerts(); } catch (error) { say(error.message); }
  });
  setInterval(refreshAlerts, 5000);
  document.addEventListener('visibilitychange', refreshPreview);
  window.addEventListener('resize', placeZoneMap);
  setInterval(drawPosition, 250);
  setInterval(refreshStatus, 10000);
  setInterval(refreshLayout, 10000);
  setInterval(refreshHealth, 15000);
}

wire();
api.resume().then((signedIn) => (signedIn ? start() : show(false)), (error) => { say(error.message); show(false); });
