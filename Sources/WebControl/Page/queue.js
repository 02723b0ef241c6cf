// The queue as the page shows it: one page of items at a time (asked of the daemon with offset and limit,
// so a queue of 100,000 costs what 100 do), each row built with text nodes only (a title is never HTML),
// reordered by dragging the handle with a mouse, a finger or a pen (pointer events), or with the arrow
// keys on the focused handle. A move carries the queue version the page showed: if the queue changed
// meanwhile the daemon refuses it and the page reloads the list.

export const PAGE_SIZE = 100;
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

export function formatSeconds(seconds) {
  if (seconds == null || !isFinite(seconds)) return '–';
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
  const two = (n) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

function cacheText(item) {
  const cache = item.cache;
  if (!cache) return '';
  if (cache.state === 'complete') return 'cached';
  if (cache.state === 'error') return 'failed: ' + (cache.error || 'download failed');
  if (cache.length) return `downloading ${Math.floor((100 * cache.bytes) / cache.length)} %`;
  return cache.state === 'none' ? 'not cached yet' : 'downloading';
}

function scheduleText(schedule) {
  if (!schedule) return 'always';
  const parts = [];
  if (schedule.days && schedule.days.length) parts.push(schedule.days.join(' '));
  if (schedule.from || schedule.until) parts.push(`${schedule.from || '00:00'}–${schedule.until || '24:00'}`);
  if (schedule.start || schedule.end) parts.push(`${schedule.start || '…'} to ${schedule.end || '…'}`);
  return parts.join(', ') || 'always';
}

export class QueueView {
  /// `api`: the link; `say(text)`: a message for the status line.
  constructor(list, api, say) {
    this.list = list;
    this.api = api;
    this.say = say;
    this.offset = 0;
    this.total = 0;
    this.version = null;
    this.currentId = null;
    this.items = [];
    /// A drag on a handle is under way; a render asked for meanwhile waits for its end.
    this.dragActive = false;
    this.renderPending = false;
    this.drawnVersion = null;
    this.drawnOffset = 0;
  }

  async load() {
    const page = await this.api.rpc('queue.list', { offset: this.offset, limit: PAGE_SIZE });
    if (page.items.length === 0 && this.offset > 0 && page.total > 0) {
      this.offset = Math.max(0, Math.floor((page.total - 1) / PAGE_SIZE) * PAGE_SIZE);
      return this.load();
    }
    this.items = page.items;
    this.total = page.total;
    this.version = page.version;
    this.currentId = page.currentId;
    this.render();
  }

  /// Rows whose item did not change are kept as they are (an open schedule editor stays open while a
  /// download's progress redraws its neighbours); the others are made anew. Not during a drag: a row made
  /// anew under the finger (an item starting, a duration learned) would end the drag with no drop, so the
  /// list is drawn when the drag ends.
  render() {
    if (this.dragActive) {
      this.renderPending = true;
      return;
    }
    // What the rows on screen were drawn from: a drop counts its position among them.
    this.drawnVersion = this.version;
    this.drawnOffset = this.offset;
    const kept = new Map([...this.list.children].map((row) => [row.dataset.key, row]));
    this.list.replaceChildren(...this.items.map((item, index) => {
      const key = JSON.stringify([item, item.id === this.currentId, this.offset + index]);
      const row = kept.get(key) || this.row(item, this.offset + index);
      row.dataset.key = key;
      return row;
    }));
    this.list.setAttribute('start', String(this.offset + 1));
    document.getElementById('queue-count').textContent = `(${this.total})`;
    const last = Math.min(this.total, this.offset + PAGE_SIZE);
    document.getElementById('page-info').textContent = this.total ? `${this.offset + 1}–${last} of ${this.total}` : 'empty';
    document.getElementById('page-prev').disabled = this.offset === 0;
    document.getElementById('page-next').disabled = last >= this.total;
  }

  row(item, index) {
    const title = item.title || item.uri.split('/').pop() || item.uri;
    const handle = element('button', {
      class: 'handle', type: 'button', 'aria-label': `Move ${title} (position ${index + 1}); arrow keys move it`,
      text: '☰',
    });
    const loops = element('input', {
      type: 'number', min: '0', max: '1000000', value: String(item.loops), class: 'loops',
      'aria-label': `Plays of ${title} per pass (0: forever)`,
    });
    loops.addEventListener('change', () => this.act(() => this.api.rpc('queue.update', { id: item.id, loops: Number(loops.value) })));
    const interruptLoops = element('input', { type: 'number', min: '1', max: '100', value: '1', class: 'loops', 'aria-label': 'Times to play it as an interrupt' });
    const row = element('li', { class: 'item' + (item.id === this.currentId ? ' current' : '') + (item.state === 'failed' ? ' failed' : ''), 'data-id': String(item.id) },
      handle,
      element('div', { class: 'item-main' },
        element('span', { class: 'title', text: title }),
        element('span', { class: 'meta', text: [formatSeconds(item.duration), cacheText(item), item.error ? 'error: ' + item.error : ''].filter(Boolean).join(' · ') }),
        element('span', { class: 'meta', text: 'plays: ' + scheduleText(item.schedule) + (item.inWindow === false ? ' (not now)' : '') })),
      element('div', { class: 'item-actions' },
        element('label', { class: 'inline' }, 'loops ', loops),
        element('button', { type: 'button', text: 'Play now', onclick: () => this.act(() => this.api.rpc('player.play', { id: item.id })) }),
        element('span', { class: 'inline' },
          element('button', { type: 'button', text: 'Interrupt ×', onclick: () => this.act(() => this.api.rpc('queue.interrupt', { item: { uri: item.uri, title: item.title ?? undefined }, loops: Number(interruptLoops.value) })) }),
          interruptLoops),
        element('button', { type: 'button', text: 'Remove', onclick: () => this.act(() => this.api.rpc('queue.remove', { ids: [item.id] })) }),
        this.scheduleEditor(item, title)));
    this.dragging(handle, row, item);
    return row;
  }

  scheduleEditor(item, title) {
    const schedule = item.schedule || {};
    const days = DAYS.map((day) => {
      const box = element('input', { type: 'checkbox', value: day });
      box.checked = (schedule.days || []).includes(day);
      return element('label', { class: 'inline' }, box, ' ' + day);
    });
    const from = element('input', { type: 'time', value: schedule.from || '' });
    const until = element('input', { type: 'time', value: schedule.until || '' });
    const start = element('input', { type: 'date', value: schedule.start || '' });
    const end = element('input', { type: 'date', value: schedule.end || '' });
    const save = element('button', { type: 'submit', text: 'Save schedule' });
    const clear = element('button', { type: 'button', text: 'Always' });
    const form = element('form', { class: 'schedule' },
      element('fieldset', {}, element('legend', { text: 'Days' }), ...days),
      element('label', {}, 'From ', from), element('label', {}, 'Until ', until),
      element('label', {}, 'First date ', start), element('label', {}, 'Last date ', end), save, clear);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const value = {};
      const chosen = days.map((label) => label.querySelector('input')).filter((box) => box.checked).map((box) => box.value);
      if (chosen.length) value.days = chosen;
      if (from.value) value.from = from.value;
      if (until.value) value.until = until.value;
      if (start.value) value.start = start.value;
      if (end.value) value.end = end.value;
      this.act(() => this.api.rpc('queue.update', { id: item.id, schedule: Object.keys(value).length ? value : null }));
    });
    clear.addEventListener('click', () => this.act(() => this.api.rpc('queue.update', { id: item.id, schedule: null })));
    return element('details', {}, element('summary', { text: 'Schedule' }), form);
  }

  /// Pointer drag on the handle (mouse, touch, pen) and arrow keys: the drop position becomes queue.move.
  dragging(handle, row, item) {
    handle.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowUp' ? -1 : event.key === 'ArrowDown' ? 1 : 0;
      if (!step) return;
      event.preventDefault();
      const index = this.offset + this.items.findIndex((other) => other.id === item.id) + step;
      if (index >= 0 && index < this.total) this.move(item.id, index, true);
    });
    handle.addEventListener('pointerdown', (event) => {
      // One drag at a time, by the main button or a first finger (a right click's menu may swallow its up).
      if (event.button !== 0 || !event.isPrimary || this.dragActive) return;
      event.preventDefault();
      handle.setPointerCapture(event.pointerId);
      this.dragActive = true;
      row.classList.add('dragging');
      const rows = [...this.list.children];
      const drawn = { version: this.drawnVersion, offset: this.drawnOffset, ids: rows.map((other) => Number(other.dataset.id)) };
      const from = rows.indexOf(row);
      let to = from;
      // `slot`: where it would be inserted among the rows as they are (0…n); its new index counts without it.
      const moveTo = (y) => {
        let slot = rows.length;
        for (let index = 0; index < rows.length; index++) {
          const box = rows[index].getBoundingClientRect();
          if (y < box.top + box.height / 2) { slot = index; break; }
        }
        to = slot > from ? slot - 1 : slot;
        for (const other of rows) other.classList.remove('drop-before', 'drop-after');
        if (to === from) return;
        if (slot < rows.length) rows[slot].classList.add('drop-before');
        else rows[rows.length - 1].classList.add('drop-after');
      };
      const onMove = (moveEvent) => moveTo(moveEvent.clientY);
      const onUp = (upEvent) => {
        handle.removeEventListener('pointermove', onMove);
        handle.removeEventListener('pointerup', onUp);
        handle.removeEventListener('pointercancel', onUp);
        handle.removeEventListener('lostpointercapture', onUp);
        row.classList.remove('dragging');
        for (const other of rows) other.classList.remove('drop-before', 'drop-after');
        this.dragActive = false;
        // The position among the rows as drawn, checked against the version they were drawn from: a change
        // that arrived during the drag makes the daemon refuse the move rather than put the item elsewhere.
        if (upEvent.type === 'pointerup' && to !== from) this.move(item.id, drawn.offset + to, false, drawn.version, drawn.ids);
        if (this.renderPending) {
          this.renderPending = false;
          this.render();
        }
      };
      handle.addEventListener('pointermove', onMove);
      handle.addEventListener('pointerup', onUp);
      handle.addEventListener('pointercancel', onUp);
      handle.addEventListener('lostpointercapture', onUp);
    });
  }

  // `drawnIds`: the rows' ids as the drag saw them. A play ending bumps the queue's version too, so a refusal
  // (-32005) is checked: when the rows are still those ids in that order, the move is asked again at the new
  // version (a loop of short clips otherwise refused most drags); when they are not, it stays refused.
  async move(id, index, keepFocus, version = this.version, drawnIds = null) {
    try {
      try {
        await this.api.rpc('queue.move', { id, index, ifVersion: version });
      } catch (error) {
        if (error.code !== -32005 || !drawnIds) throw error;
        const now = await this.api.rpc('queue.list', { offset: this.drawnOffset, limit: drawnIds.length });
        const same = now.items.length === drawnIds.length && now.items.every((other, at) => other.id === drawnIds[at]);
        if (!same) throw error;
        await this.api.rpc('queue.move', { id, index, ifVersion: now.version });
      }
    } catch (error) {
      if (error.code === -32005) this.say('The queue changed meanwhile: here it is again; try once more.');
      else this.say(error.message);
    }
    await this.load();
    if (keepFocus) this.list.querySelector(`li[data-id="${id}"] .handle`)?.focus();
  }

  async act(action) {
    try { await action(); } catch (error) { this.say(error.message); }
  }
}
