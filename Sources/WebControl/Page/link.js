// The page's link to queued-web: JSON requests (with the session's CSRF token on every change), uploads
// with progress, and the events WebSocket, reconnected with backoff (0.5 s doubling to 8 s).

/// The methods that act on one zone's queue or player: sent with the zone the page looks at (not main).
const ZONED = /^(queue\.(add|insert|remove|move|clear|replace|update|setLoops|list|get|interrupt)|player\.(play|pause|toggle|stop|next|previous|seek|status|set))$/;

export class Api {
  constructor() { this.csrf = null; this.zone = null; }

  async request(path, { method = 'GET', body } = {}) {
    const headers = { 'Accept': 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method !== 'GET' && this.csrf) headers['X-CSRF-Token'] = this.csrf;
    const response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin', cache: 'no-store',
    });
    let json = null;
    try { json = await response.json(); } catch (_) { /* not JSON */ }
    if (!response.ok) {
      const error = new Error(json?.error?.message || `${response.status} ${response.statusText}`);
      error.status = response.status;
      throw error;
    }
    return json;
  }

  /// The session of the cookie, if any: true when signed in.
  async resume() {
    try {
      const session = await this.request('/api/session');
      this.csrf = session.csrf || null;
      return true;
    } catch (error) {
      if (error.status === 401) return false;
      throw error;
    }
  }

  async signIn(secret) {
    const reply = await this.request('/api/login', { method: 'POST', body: { secret } });
    this.csrf = reply.csrf;
  }

  async signOut() {
    await this.request('/api/logout', { method: 'POST', body: {} });
    this.csrf = null;
  }

  /// A daemon method through the page's allowlist; a JSON-RPC error becomes a thrown Error with its code.
  async rpc(method, params) {
    if (this.zone && ZONED.test(method)) params = { ...(params || {}), zone: this.zone };
    const reply = await this.request('/api/rpc', { method: 'POST', body: params === undefined ? { method } : { method, params } });
    if (reply.error) {
      const error = new Error(reply.error.message);
      error.code = reply.error.code;
      error.data = reply.error.data;
      throw error;
    }
    return reply.result;
  }

  /// Streams `file` to the media folder; `progress(sent, total)` as it goes. Resolves to {name, path, bytes}.
  upload(file, progress) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', '/api/upload?name=' + encodeURIComponent(file.name));
      xhr.setRequestHeader('X-CSRF-Token', this.csrf || '');
      xhr.setRequestHeader('Content-Type', 'application/octet-stream');
      xhr.upload.onprogress = (event) => progress(event.loaded, event.total || file.size);
      xhr.onload = () => {
        let json = null;
        try { json = JSON.parse(xhr.responseText); } catch (_) { /* not JSON */ }
        if (xhr.status >= 200 && xhr.status < 300) resolve(json);
        else reject(new Error(json?.error?.message || `upload refused (${xhr.status})`));
      };
      xhr.onerror = () => reject(new Error('the upload was cut off'));
      xhr.send(file);
    });
  }
}

/// The events WebSocket. `onEvent(method, params)` for every event, `onState(text)` when the link or the
/// daemon comes or goes: 'live', 'daemon-away', 'reconnecting'.
export class EventLink {
  constructor(onEvent, onState) {
    this.onEvent = onEvent;
    this.onState = onState;
    this.wait = 500;
    this.closed = false;
  }

  open() {
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
    const socket = new WebSocket(scheme + location.host + '/api/events');
    this.socket = socket;
    socket.onmessage = (message) => {
      let event;
      try { event = JSON.parse(message.data); } catch (_) { return; }
      if (event.method === 'daemon.connected') { this.wait = 500; this.onState('live'); }
      if (event.method === 'daemon.disconnected') this.onState('daemon-away');
      this.onEvent(event.method, event.params);
    };
    socket.onclose = () => {
      if (this.closed) return;
      this.onState('reconnecting');
      setTimeout(() => this.open(), this.wait);
      this.wait = Math.min(8000, this.wait * 2);
    };
  }

  close() {
    this.closed = true;
    this.socket?.close();
  }
}
