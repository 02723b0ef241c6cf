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

// The form and the JSON say the same document: the form writes its fields into the JSON (keeping every
// other field there, overlays or zones), and the JSON, when edited or loaded, fills the form.
function formToDocument() {
  let document;
  try { document = JSON.parse($('document').value); } catch { document = {}; }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) document = {};
  const duration = Number($('form-duration').value);
  document.queue = $('form-items').value.split('\n').map((line) => line.trim()).filter(Boolean)
    .map((uri) => duration > 0 ? {uri, duration} : uri);
  document.loops = Number($('form-loops').value || 0);
  for (const [field, id, number] of [['volume', 'form-volume', true], ['fit', 'form-fit', false], ['rotate', 'form-rotate', true]]) {
    const value = $(id).value;
    if (value === '') delete document[field]; else document[field] = number ? Number(value) : value;
  }
  delete document.rev;
  $('document').value = JSON.stringify(document, null, 1);
}

function documentToForm() {
  let document;
  try { document = JSON.parse($('document').value); } catch { return; }
  const queue = Array.isArray(document.queue) ? document.queue : [];
  $('form-items').value = queue.map((item) => typeof item === 'string' ? item : item?.uri ?? '').join('\n');
  const durations = queue.map((item) => item?.duration).filter((d) => d != null);
  $('form-duration').value = durations.length ? durations[0] : '';
  $('form-loops').value = document.loops ?? 0;
  $('form-volume').value = document.volume ?? '';
  $('form-fit').value = document.fit ?? '';
  $('form-rotate').value = document.rotate != null ? String(document.rotate) : '';
}

for (const id of ['form-items', 'form-loops', 'form-volume', 'form-fit', 'form-rotate', 'form-duration']) {
  $(id).addEventListener('input', formToDocument);
  $(id).addEventListener('change', formToDocument);
}
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
setInterval(() => { if (!$('tab-content').hidden) refreshProgress(); }, 2000);

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
