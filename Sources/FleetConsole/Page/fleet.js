// The fleet page: sign-in, the wall of screens (live: only what changed since the last look is fetched every
// 2 s), content pushed and watched, history and rollback, commands, proof-of-play reports, alerts, users.
// Everything a screen or a user sent is shown as text (textContent), never as markup.

const $ = (id) => document.getElementById(id);
let csrf = '';
let role = 'viewer';
const screens = new Map();
let matching = [];
let changeNumber = 0;
let filterKey = '';
let watched = null; // {target, rev}
const shownAtMost = 500;

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf}, body: JSON.stringify(body),
  };
  const response = await fetch('/api/' + path, options);
  if (response.status === 401) { showSignIn(); throw new Error('sign in first'); }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error?.message || data.message || ('HTTP ' + response.status));
  return data;
}

function say(text, bad) {
  $('message').textContent = text;
  $('message').className = bad ? 'error' : '';
}

function showSignIn() {
  $('console').hidden = true;
  $('signin').hidden = false;
}

function showConsole(session) {
  csrf = session.csrf;
  role = session.role;
  $('who').textContent = session.user + ' (' + session.role + ')';
  document.body.dataset.role = role;
  $('signin').hidden = true;
  $('console').hidden = false;
  refreshWall(true);
}

$('signin-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('signin-error').textContent = '';
  try {
    const response = await fetch('/api/login', {
      method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({user: $('signin-user').value, password: $('signin-password').value}),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.error?.message || ('HTTP ' + response.status));
    $('signin-password').value = '';
    showConsole(data);
  } catch (error) {
    $('signin-error').textContent = error.message;
  }
});

$('signout').addEventListener('click', async () => {
  await api('logout', {}).catch(() => {});
  showSignIn();
});

for (const button of document.querySelectorAll('#tabs button')) {
  button.addEventListener('click', () => {
    for (const other of document.querySelectorAll('#tabs button')) other.classList.toggle('active', other === button);
    for (const tab of document.querySelectorAll('.tab')) tab.hidden = tab.id !== 'tab-' + button.dataset.tab;
    if (button.dataset.tab === 'alerts') refreshAlerts();
    if (button.dataset.tab === 'users') refreshUsers();
    if (button.dataset.tab === 'reports') showReport();
  });
}

// MARK: the wall

function ago(seconds) {
  if (seconds == null) return '';
  const s = Math.max(0, Date.now() / 1000 - seconds);
  if (s < 90) return Math.round(s) + ' s';
  if (s < 5400) return Math.round(s / 60) + ' min';
  if (s < 172800) return Math.round(s / 3600) + ' h';
  return Math.round(s / 86400) + ' days';
}

function tile(screen) {
  const element = document.createElement('article');
  element.className = 'screen ' + (screen.online === true ? 'online' : screen.online === false ? 'offline' : 'unknown');
  element.dataset.id = screen.id;
  const name = document.createElement('h3');
  name.textContent = screen.id;
  const state = document.createElement('p');
  state.className = 'state';
  state.textContent = (screen.online === true ? 'online' : screen.online === false ? 'offline' : 'unknown')
    + (screen.since ? ' for ' + ago(screen.since) : '') + (screen.state && screen.online ? ' · ' + screen.state : '');
  const playing = document.createElement('p');
  playing.className = 'playing';
  playing.textContent = screen.title || '—';
  const rev = document.createElement('p');
  rev.className = 'rev';
  rev.textContent = 'rev ' + (screen.appliedRev ?? '—') + (screen.pendingRev != null ? ' → ' + screen.pendingRev : '')
    + (screen.applying ? ' (' + screen.applying.complete + '/' + screen.applying.total + ')' : '');
  element.append(name, state, playing, rev);
  if (screen.error) {
    const error = document.createElement('p');
    error.className = 'error';
    error.textContent = screen.error;
    element.append(error);
  }
  const facts = [];
  if (screen.groups?.length) facts.push(screen.groups.join(', '));
  if (screen.host?.diskFreePercent != null) facts.push('disk ' + screen.host.diskFreePercent + '% free');
  if (screen.host?.temperature != null) facts.push(screen.host.temperature + ' °C');
  if (screen.host?.undervoltage && screen.host.undervoltage !== 'no') facts.push('undervoltage ' + screen.host.undervoltage);
  if (screen.rss != null) facts.push(Math.round(screen.rss / 1048576) + ' MiB');
  if (facts.length) {
    const line = document.createElement('p');
    line.className = 'facts';
    line.textContent = facts.join(' · ');
    element.append(line);
  }
  element.addEventListener('click', () => openScreen(screen.id));
  return element;
}

function filterQuery() {
  const params = new URLSearchParams();
  if ($('search').value) params.set('q', $('search').value);
  if ($('group-filter').value) params.set('group', $('group-filter').value);
  if ($('state-filter').value) params.set('state', $('state-filter').value);
  return params;
}

async function refreshWall(full) {
  const params = filterQuery();
  const key = params.toString();
  if (key !== filterKey) { full = true; filterKey = key; }
  if (!full) params.set('since', String(changeNumber));
  let data;
  try { data = await api('screens?' + params.toString()); } catch (error) { say(error.message, true); return; }
  if (full) screens.clear();
  for (const screen of data.screens) screens.set(screen.id, screen);
  matching = data.ids ? data.ids : data.screens.map((s) => s.id);
  changeNumber = data.changeNumber;
  $('counts').textContent = data.matching + ' shown of ' + data.total + ' screens, ' + data.online + ' online';
  $('broker').textContent = 'broker ' + data.broker;
  $('broker').className = data.broker === 'connected' ? '' : 'error';
  const groups = $('group-filter');
  const known = new Set([...groups.options].map((o) => o.value));
  for (const group of data.groups) {
    if (known.has(group)) continue;
    const option = document.createElement('option');
    option.value = group;
    option.textContent = group;
    groups.append(option);
    const target = document.createElement('option');
    target.value = 'group/' + group;
    $('targets').append(target);
  }
  drawWall();
}

function drawWall() {
  const ids = matching.slice().sort();
  const wall = $('wall');
  const tiles = ids.slice(0, shownAtMost).map((id) => screens.get(id)).filter(Boolean).map(tile);
  wall.replaceChildren(...tiles);
  $('wall-more').textContent = ids.length > shownAtMost ? 'The first ' + shownAtMost + ' of ' + ids.length + ': search or filter to see others.' : '';
}

for (const id of ['search', 'group-filter', 'state-filter']) $(id).addEventListener('input', () => refreshWall(true));
setInterval(() => { if (!$('console').hidden) refreshWall(false); }, 2000);

let openID = null;
async function openScreen(id) {
  openID = id;
  $('screen-title').textContent = id;
  $('screen-result').textContent = '';
  const screen = await api('screen?id=' + encodeURIComponent(id)).catch((error) => ({error: error.message}));
  $('screen-details').textContent = JSON.stringify(screen.reported ?? screen, null, 1);
  showPicture(id, screen.thumbnails?.length);
  showHistory(id, screen.thumbnails ?? []);
  $('screen-dialog').showModal();
}

// The kept screenshots, newest first, each with its time; a click shows it large.
function showHistory(id, times) {
  const strip = $('screen-history');
  const pictures = times.slice().reverse().map((at, back) => {
    const figure = document.createElement('figure');
    const picture = document.createElement('img');
    picture.src = '/api/thumbnail.jpg?id=' + encodeURIComponent(id) + '&n=' + back + '&t=' + Date.now();
    picture.alt = 'screenshot ' + new Date(at * 1000).toLocaleString();
    picture.addEventListener('click', () => { $('screen-picture').src = picture.src; $('screen-picture').hidden = false; });
    const caption = document.createElement('figcaption');
    caption.textContent = ago(at) + ' ago';
    figure.append(picture, caption);
    return figure;
  });
  strip.replaceChildren(...pictures);
}

function showPicture(id, have) {
  const picture = $('screen-picture');
  picture.hidden = !have;
  if (have) picture.src = '/api/thumbnail.jpg?id=' + encodeURIComponent(id) + '&t=' + Date.now();
}

$('screen-close').addEventListener('click', () => $('screen-dialog').close());
for (const button of document.querySelectorAll('#screen-dialog [data-command]')) {
  button.addEventListener('click', async () => {
    const method = button.dataset.command;
    if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
    try {
      const answer = await api('command', {target: openID, method, params: button.dataset.params ? JSON.parse(button.dataset.params) : undefined});
      const line = answer.results[0];
      $('screen-result').textContent = line.error ? 'failed: ' + line.error : method + ': done';
      if (method === 'player.screenshot' && !line.error) {
        showPicture(openID, true);
        const screen = await api('screen?id=' + encodeURIComponent(openID)).catch(() => ({}));
        showHistory(openID, screen.thumbnails ?? []);
      }
    } catch (error) {
      $('screen-result').textContent = error.message;
    }
  });
}

// MARK: content

function documentValue() {
  try { return JSON.parse($('document').value); } catch (error) { throw new Error('the document is not JSON: ' + error.message); }
}

// The form and the JSON say the same document: the form writes its fields into the JSON, keeping every
// field it has no column for (of the document, of each item, overlay and zone), and the JSON, when edited or
// loaded, fills the form. Each row remembers the object it came from; its columns are written over it.

const anchors = ['top-left', 'top', 'top-right', 'left', 'center', 'right', 'bottom-left', 'bottom', 'bottom-right'];
// A column: its header's field, how it reads from and writes to the row's object, and its input.
const itemColumns = [
  {get: (o) => o.uri, set: (o, v) => { o.uri = v; }, input: 'text', size: 30},
  {get: (o) => o.duration, set: (o, v) => number(o, 'duration', v), input: 'number'},
  {get: (o) => o.loops, set: (o, v) => number(o, 'loops', v), input: 'number'},
  {get: (o) => o.transition?.type, set: (o, v) => nested(o, 'transition', 'type', v), input: ['', 'cut', 'fade', 'dip', 'crossfade']},
  {get: (o) => o.transition?.duration, set: (o, v) => nested(o, 'transition', 'duration', v === '' ? '' : Number(v)), input: 'number', step: '0.1'},
  {get: (o) => o.schedule?.days?.join(' '), set: (o, v) => nested(o, 'schedule', 'days', v.trim() ? v.trim().split(/[\s,]+/) : ''), input: 'text', size: 12, placeholder: 'mon tue…'},
  {get: (o) => o.schedule?.from, set: (o, v) => nested(o, 'schedule', 'from', v), input: 'time'},
  {get: (o) => o.schedule?.until, set: (o, v) => nested(o, 'schedule', 'until', v), input: 'time'},
];
// An overlay's second column is its text, a clock's format or an image's file, by its type.
const overlayContent = {text: 'text', ticker: 'text', clock: 'format', image: 'path'};
const overlayColumns = [
  {get: (o) => o.type, set: (o, v) => {
    const before = overlayContent[o.type], after = overlayContent[v];
    if (before && after && before !== after && o[before] != null) { o[after] = o[before]; delete o[before]; }
    o.type = v;
  }, input: ['text', 'clock', 'ticker', 'image']},
  {get: (o) => o[overlayContent[o.type] ?? 'text'], set: (o, v) => { const field = overlayContent[o.type] ?? 'text'; if (v === '') delete o[field]; else o[field] = v; }, input: 'text', size: 24},
  {get: (o) => o.anchor, set: (o, v) => { if (v === '') delete o.anchor; else o.anchor = v; }, input: [''].concat(anchors)},
];
// A zone's rectangle: pixels, or a share of the side written "50%".
const length = (v) => v.trim() === '' ? '' : (v.trim().endsWith('%') ? v.trim() : Number(v));
const zoneColumns = [
  {get: (o) => o.name, set: (o, v) => { o.name = v; }, input: 'text', size: 8},
  ...['x', 'y', 'w', 'h'].map((side) => ({get: (o) => o.rect?.[side], set: (o, v) => nested(o, 'rect', side, length(v)), input: 'text', size: 4})),
  {get: (o) => o.audio, set: (o, v) => { if (v) o.audio = true; else delete o.audio; }, input: 'checkbox'},
  {get: (o) => o.$queue?.map((item) => typeof item === 'string' ? item : item?.uri).join(' '), set: (o, v) => {
    const old = new Map((o.$queue ?? []).map((item) => [typeof item === 'string' ? item : item?.uri, item]));
    o.$queue = v.trim() ? v.trim().split(/\s+/).map((uri) => old.get(uri) ?? uri) : [];
  }, input: 'text', size: 24},
];

function number(object, field, value) { if (value === '') delete object[field]; else object[field] = Number(value); }
// Sets object[outer][field], dropping the inner object once it is empty.
function nested(object, outer, field, value) {
  const inner = {...(object[outer] ?? {})};
  if (value === '' || value == null) delete inner[field]; else inner[field] = value;
  if (Object.keys(inner).length) object[outer] = inner; else delete object[outer];
}

function addRow(table, columns, original) {
  const row = document.createElement('tr');
  row.original = original;
  for (const column of columns) {
    const cell = document.createElement('td');
    let input;
    if (Array.isArray(column.input)) {
      input = document.createElement('select');
      for (const value of column.input) input.append(new Option(value || '—', value));
    } else {
      input = document.createElement('input');
      input.type = column.input;
      if (column.size) input.size = column.size;
      if (column.step) input.step = column.step;
      if (column.placeholder) input.placeholder = column.placeholder;
    }
    const value = column.get(original);
    if (column.input === 'checkbox') input.checked = !!value; else input.value = value ?? '';
    input.addEventListener('input', formToDocument);
    input.addEventListener('change', formToDocument);
    cell.append(input);
    row.append(cell);
  }
  const remove = document.createElement('td');
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Remove';
  button.addEventListener('click', () => { table.touched = true; row.remove(); formToDocument(); });
  remove.append(button);
  row.append(remove);
  table.tBodies[0].append(row);
}

// The row's object: what it came from, with every column written over it (a column read as it is now).
function rowObject(row, columns) {
  const object = structuredClone(row.original);
  columns.forEach((column, index) => {
    const input = row.cells[index].firstChild;
    column.set(object, column.input === 'checkbox' ? input.checked : input.value);
  });
  return object;
}

function rows(id, columns) { return [...$(id).tBodies[0].rows].map((row) => rowObject(row, columns)); }

function formToDocument() {
  let document;
  try { document = JSON.parse($('document').value); } catch { document = {}; }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) document = {};
  // An item with nothing but its URI is written as the URI.
  document.queue = rows('form-items', itemColumns).filter((item) => item.uri)
    .map((item) => Object.keys(item).length === 1 ? item.uri : item);
  document.loops = Number($('form-loops').value || 0);
  for (const [field, id, isNumber] of [['volume', 'form-volume', true], ['fit', 'form-fit', false], ['rotate', 'form-rotate', true]]) {
    const value = $(id).value;
    if (value === '') delete document[field]; else document[field] = isNumber ? Number(value) : value;
  }
  const overlays = rows('form-overlays', overlayColumns);
  if (overlays.length) document.overlays = overlays; else if (!$('form-overlays').touched) delete document.overlays; else document.overlays = [];
  const zones = rows('form-zones', zoneColumns).filter((zone) => zone.name);
  if (zones.length) {
    document.layout = {zones: zones.map(({$queue, $loops, ...zone}) => zone)};
    const queues = {};
    for (const zone of zones) if (zone.name !== 'main' && zone.$queue) queues[zone.name] = {queue: zone.$queue, loops: zone.$loops ?? 0};
    if (Object.keys(queues).length) document.zones = queues; else delete document.zones;
  } else {
    delete document.layout;
    delete document.zones;
  }
  delete document.rev;
  $('document').value = JSON.stringify(document, null, 1);
}

function documentToForm() {
  let document;
  try { document = JSON.parse($('document').value); } catch { return; }
  if (typeof document !== 'object' || document === null) return;
  for (const id of ['form-items', 'form-overlays', 'form-zones']) $(id).tBodies[0].replaceChildren();
  for (const item of Array.isArray(document.queue) ? document.queue : []) {
    addRow($('form-items'), itemColumns, typeof item === 'string' ? {uri: item} : item ?? {});
  }
  $('form-loops').value = document.loops ?? 0;
  $('form-volume').value = document.volume ?? '';
  $('form-fit').value = document.fit ?? '';
  $('form-rotate').value = document.rotate != null ? String(document.rotate) : '';
  // `overlays: []` (take every layer off) is kept as the document says until a row is added or removed.
  $('form-overlays').touched = Array.isArray(document.overlays);
  for (const overlay of Array.isArray(document.overlays) ? document.overlays : []) addRow($('form-overlays'), overlayColumns, overlay ?? {});
  const zones = Array.isArray(document.layout?.zones) ? document.layout.zones : Array.isArray(document.layout) ? document.layout : [];
  for (const zone of zones) {
    const queue = document.zones?.[zone?.name];
    addRow($('form-zones'), zoneColumns, {...zone, $queue: queue?.queue, $loops: queue?.loops});
  }
}

for (const id of ['form-loops', 'form-volume', 'form-fit', 'form-rotate']) {
  $(id).addEventListener('input', formToDocument);
  $(id).addEventListener('change', formToDocument);
}
$('form-add-item').addEventListener('click', () => { addRow($('form-items'), itemColumns, {uri: ''}); });
$('form-add-overlay').addEventListener('click', () => {
  $('form-overlays').touched = true;
  addRow($('form-overlays'), overlayColumns, {type: 'text', text: ''});
  formToDocument();
});
$('form-add-zone').addEventListener('click', () => { addRow($('form-zones'), zoneColumns, {name: '', rect: {x: 0, y: 0, w: '100%', h: '100%'}}); });
$('document').addEventListener('input', documentToForm);
documentToForm();

$('check').addEventListener('click', async () => {
  try {
    const answer = await api('check', {document: documentValue()});
    say(answer.refusal ? 'refused: ' + answer.refusal : 'the document is good', !!answer.refusal);
  } catch (error) { say(error.message, true); }
});

$('push').addEventListener('click', async () => {
  try {
    const answer = await api('push', {target: $('target').value, document: documentValue()});
    say('pushed rev ' + answer.rev + ' to ' + answer.target);
    watched = {target: answer.target, rev: answer.rev};
    refreshProgress();
    loadHistory();
  } catch (error) { say(error.message, true); }
});

$('load-target').addEventListener('click', loadHistory);

async function loadHistory() {
  const target = $('target').value;
  if (!target) return;
  let data;
  try { data = await api('documents?target=' + encodeURIComponent(target)); } catch (error) { say(error.message, true); return; }
  const rows = data.history.map((entry) => {
    const row = document.createElement('tr');
    const cells = [String(entry.rev), new Date(entry.pushedAt * 1000).toLocaleString(), entry.pushedBy,
      String(entry.document.queue?.length ?? 0)].map((text) => { const cell = document.createElement('td'); cell.textContent = text; return cell; });
    const actions = document.createElement('td');
    const view = document.createElement('button');
    view.textContent = 'Edit';
    view.addEventListener('click', () => {
      const copy = {...entry.document};
      delete copy.rev;
      $('document').value = JSON.stringify(copy, null, 1);
      documentToForm();
    });
    const back = document.createElement('button');
    back.textContent = 'Roll back to this';
    back.className = 'operator-only rollback';
    back.addEventListener('click', async () => {
      try {
        const answer = await api('rollback', {target, rev: entry.rev});
        say('rolled back to rev ' + entry.rev + ' as rev ' + answer.rev);
        watched = {target, rev: answer.rev};
        refreshProgress();
        loadHistory();
      } catch (error) { say(error.message, true); }
    });
    actions.append(view, back);
    row.append(...cells, actions);
    return row;
  });
  $('history').tBodies[0].replaceChildren(...rows);
  if (data.rev != null && !watched) { watched = {target, rev: data.rev}; refreshProgress(); }
}

async function refreshProgress() {
  if (!watched) return;
  let data;
  try { data = await api('progress?target=' + encodeURIComponent(watched.target) + '&rev=' + watched.rev); } catch { return; }
  $('progress-rev').textContent = 'of rev ' + data.rev + ' on ' + data.target;
  $('progress-counts').textContent = Object.entries(data.counts).map(([state, count]) => count + ' ' + state).join(', ');
  const rows = data.members.slice(0, shownAtMost).map((member) => {
    const row = document.createElement('tr');
    row.dataset.state = member.progress.state;
    const name = document.createElement('td');
    name.textContent = member.id;
    const state = document.createElement('td');
    const p = member.progress;
    state.textContent = p.state + (p.reason ? ': ' + p.reason : '') + (p.total ? ' ' + p.complete + '/' + p.total : '');
    row.append(name, state);
    return row;
  });
  $('progress').tBodies[0].replaceChildren(...rows);
}
setInterval(() => { if (!$('tab-content').hidden) { refreshProgress(); loadAlerts(); } }, 2000);

// MARK: alerts

async function loadAlerts() {
  let data;
  try { data = await api('fleet-alerts'); } catch { return; }
  const rows = data.alerts.map((alert) => {
    const row = document.createElement('tr');
    for (const text of [alert.target, alert.name, alert.text ?? (alert.items ? alert.items.length + ' items' : ''), String(alert.priority ?? 0), alert.expires ?? '']) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    const actions = document.createElement('td');
    const withdraw = document.createElement('button');
    withdraw.textContent = 'Withdraw';
    withdraw.className = 'operator-only withdraw';
    withdraw.addEventListener('click', async () => {
      if (!window.confirm('Withdraw alert ' + alert.name + ' from ' + alert.target + '?')) return;
      try {
        await api('fleet-alerts/withdraw', {target: alert.target, name: alert.name});
        say('alert ' + alert.name + ' withdrawn from ' + alert.target);
        loadAlerts();
      } catch (error) { say(error.message, true); }
    });
    actions.append(withdraw);
    row.append(actions);
    return row;
  });
  $('alerts').tBodies[0].replaceChildren(...rows);
}

$('alert-raise').addEventListener('click', async () => {
  const body = {target: $('target').value, name: $('alert-name').value.trim(), text: $('alert-text').value.trim() || undefined,
    priority: Number($('alert-priority').value || 0)};
  // The browser's local time, sent as UTC.
  if ($('alert-expires').value) body.expires = new Date($('alert-expires').value).toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (!window.confirm('Raise alert ' + body.name + ' on every screen of ' + body.target + '?')) return;
  try {
    await api('fleet-alerts', body);
    say('alert ' + body.name + ' raised on ' + body.target);
    loadAlerts();
  } catch (error) { say(error.message, true); }
});

$('command-send').addEventListener('click', async () => {
  try {
    const text = $('command-params').value.trim();
    if ($('command-method').value === 'daemon.restart' && !window.confirm('Restart the daemon on every screen of ' + $('target').value + '?')) return;
    const answer = await api('command', {target: $('target').value, method: $('command-method').value, params: text ? JSON.parse(text) : undefined});
    const rows = answer.results.map((line) => {
      const row = document.createElement('tr');
      const name = document.createElement('td');
      name.textContent = line.id;
      const result = document.createElement('td');
      result.textContent = line.error ? 'failed: ' + line.error : JSON.stringify(line.result).slice(0, 200);
      row.append(name, result);
      return row;
    });
    $('command-results').tBodies[0].replaceChildren(...rows);
  } catch (error) { say(error.message, true); }
});

// MARK: reports, alerts, users

function reportQuery() {
  const params = new URLSearchParams();
  for (const [name, id] of [['from', 'report-from'], ['to', 'report-to'], ['player', 'report-player'], ['uri', 'report-uri']]) {
    if ($(id).value) params.set(name, $(id).value);
  }
  return params;
}

async function showReport() {
  const params = reportQuery();
  let data;
  try { data = await api('plays?' + params.toString()); } catch (error) { say(error.message, true); return; }
  $('report-total').textContent = data.plays + ' plays';
  const rows = data.lines.slice(0, 5000).map((line) => {
    const row = document.createElement('tr');
    for (const text of [line.day, line.player, line.uri, String(line.plays), line.seconds.toFixed(1)]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  $('report').tBodies[0].replaceChildren(...rows);
  const csv = new URLSearchParams(params); csv.set('format', 'csv');
  $('report-csv').href = '/api/plays?' + csv.toString();
  csv.set('records', '1');
  $('records-csv').href = '/api/plays?' + csv.toString();
  $('report-json').href = '/api/plays?' + params.toString();
}
$('report-show').addEventListener('click', showReport);

function alertLine(notice) {
  const item = document.createElement('li');
  item.className = notice.state;
  item.textContent = new Date(notice.at * 1000).toLocaleString() + ' · ' + notice.player + ' · ' + notice.alert + ' ' + notice.state + ': ' + notice.detail;
  return item;
}

async function refreshAlerts() {
  let data;
  try { data = await api('alerts'); } catch { return; }
  $('alert-count').textContent = data.active.length ? '(' + data.active.length + ')' : '';
  $('alerts-active').replaceChildren(...data.active.map(alertLine));
  $('alerts-log').replaceChildren(...data.log.slice(0, 200).map(alertLine));
}
setInterval(() => { if (!$('console').hidden) refreshAlerts(); }, 5000);

async function refreshUsers() {
  if (role !== 'admin') return;
  let data;
  try { data = await api('users'); } catch (error) { say(error.message, true); return; }
  $('users').tBodies[0].replaceChildren(...data.users.map((user) => {
    const row = document.createElement('tr');
    const name = document.createElement('td');
    name.textContent = user.name;
    const userRole = document.createElement('td');
    userRole.textContent = user.role;
    const actions = document.createElement('td');
    const remove = document.createElement('button');
    remove.textContent = 'Remove';
    remove.addEventListener('click', async () => {
      try { await api('users/remove', {name: user.name}); refreshUsers(); } catch (error) { say(error.message, true); }
    });
    actions.append(remove);
    row.append(name, userRole, actions);
    return row;
  }));
}

$('user-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    await api('users', {name: $('user-name').value, role: $('user-role').value, password: $('user-password').value});
    $('user-password').value = '';
    say('user ' + $('user-name').value + ' saved');
    refreshUsers();
  } catch (error) { say(error.message, true); }
});

// A page opened with a live session goes straight in.
api('session').then(showConsole).catch(showSignIn);
