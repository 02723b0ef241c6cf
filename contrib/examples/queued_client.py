#!/usr/bin/env python3
"""A small client for queued's control socket: Python 3.8+, standard library only.

    from queued_client import QueuedClient, QueuedError

    with QueuedClient() as q:                       # $QUEUED_SOCKET or $XDG_RUNTIME_DIR/queued/queued.sock
        ids = q.call("queue.add", items=["/srv/media/intro.mp4"])["ids"]
        q.call("player.play", id=ids[0])
        q.call("player.seek", 10, True)             # params by position work too
        q.subscribe("itemStarted", "itemEnded")
        for name, params in q.events():            # ("event.itemStarted", {...}), ...
            print(name, params)

`call` returns the `result` of the response and raises `QueuedError` (with `code`, `message`, `data`) for an
`error`. Event notifications that arrive while `call` waits for its answer are kept and handed out by
`events()` in order. One client object is meant for one thread. The protocol is described in
Protocol/README.md and Protocol/queued.openrpc.json (also served by the `rpc.discover` method).

Run as a script it is a demo: it queues the files given on the command line, starts playback and prints
events until Ctrl-C:

    python3 contrib/examples/queued_client.py ~/Videos/*.mp4
"""
from __future__ import annotations

import collections
import itertools
import json
import os
import socket
import sys
from typing import Any, Deque, Dict, Iterator, Optional, Tuple

EVENT_NAMES = ("status", "progress", "itemStarted", "itemEnded", "queueChanged")


def default_socket_path() -> str:
    """The socket queued listens on by default: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock.

    Without XDG_RUNTIME_DIR (cron) this guesses /run/user/UID, where a daemon started by systemd's user
    manager listens; the daemon and queuectl themselves have no default then. Set QUEUED_SOCKET to be sure.
    """
    explicit = os.environ.get("QUEUED_SOCKET")
    if explicit:
        return explicit
    runtime = os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}"
    return os.path.join(runtime, "queued", "queued.sock")


class QueuedError(Exception):
    """A JSON-RPC error answered by the daemon."""

    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(f"{message} ({code})")
        self.code = code
        self.message = message
        self.data = data


class QueuedClient:
    """One connection to queued. Responses may be interleaved with event notifications."""

    def __init__(self, path: Optional[str] = None, timeout: Optional[float] = None):
        self.path = path or default_socket_path()
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(timeout)
        try:
            self._sock.connect(self.path)
        except OSError:
            self._sock.close()
            raise
        self._buffer = b""
        self._ids = itertools.count(1)
        self._events: Deque[Tuple[str, Dict[str, Any]]] = collections.deque()

    # -- plumbing ---------------------------------------------------------------------------------------------

    def _send(self, message: Dict[str, Any]) -> None:
        line = json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n"
        self._sock.sendall(line.encode("utf-8"))

    def _receive(self) -> Any:
        """The next JSON value from the daemon. Lines have no length limit (a screenshot is several MiB)."""
        while b"\n" not in self._buffer:
            chunk = self._sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("queued closed the connection")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return json.loads(line.decode("utf-8"))

    # -- API --------------------------------------------------------------------------------------------------

    def call(self, method: str, *args: Any, **params: Any) -> Any:
        """Calls `method` with params by name (keywords) or by position (arguments); returns its result."""
        if args and params:
            raise TypeError("give params by name or by position, not both")
        request_id = next(self._ids)
        request: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if args:
            request["params"] = list(args)
        elif params:
            request["params"] = params
        self._send(request)
        while True:
            message = self._receive()
            if isinstance(message, dict) and "id" not in message and "method" in message:
                self._events.append((message["method"], message.get("params", {})))
                continue
            if not isinstance(message, dict) or message.get("id") != request_id:
                # An answer to nothing we asked (e.g. -32600 with id null for a line the daemon could not
                # read): report it rather than wait forever.
                error = message.get("error") if isinstance(message, dict) else None
                if error:
                    raise QueuedError(error.get("code", 0), error.get("message", ""), error.get("data"))
                raise ConnectionError(f"unexpected message from queued: {message!r}")
            if "error" in message:
                error = message["error"]
                raise QueuedError(error["code"], error["message"], error.get("data"))
            return message["result"]

    def notify(self, method: str, **params: Any) -> None:
        """Sends a JSON-RPC notification (no id: the daemon carries it out and does not answer)."""
        message: Dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params:
            message["params"] = params
        self._send(message)

    def subscribe(self, *events: str, progress_interval: Optional[float] = None) -> Dict[str, Any]:
        """Subscribes this connection to `events` (all when none are named)."""
        params: Dict[str, Any] = {}
        if events:
            params["events"] = list(events)
        if progress_interval is not None:
            params["progressInterval"] = progress_interval
        return self.call("events.subscribe", **params)

    def events(self) -> Iterator[Tuple[str, Dict[str, Any]]]:
        """Yields (name, params) of each event notification, e.g. ("event.itemEnded", {...}), forever."""
        while True:
            while self._events:
                yield self._events.popleft()
            message = self._receive()
            if isinstance(message, dict) and "id" not in message and "method" in message:
                self._events.append((message["method"], message.get("params", {})))

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> "QueuedClient":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()


def _describe(name: str, params: Dict[str, Any]) -> str:
    if name == "event.status":
        return f"status: {params['state']} item={params['currentId']} volume={params['volume']}"
    if name == "event.progress":
        duration = params["duration"]
        total = f"/{duration:.1f}" if duration is not None else ""
        return f"progress: item {params['id']} at {params['position']:.1f}{total} s"
    if name == "event.itemStarted":
        return f"started: item {params['id']} (play {params['play']})"
    if name == "event.itemEnded":
        why = f": {params['error']}" if params.get("error") else ""
        return f"ended: item {params['id']} (play {params['play']}) {params['reason']}{why}"
    if name == "event.queueChanged":
        return f"queue changed: version {params['version']}"
    return f"{name} {json.dumps(params)}"


def main(argv: list) -> int:
    try:
        client = QueuedClient()
    except OSError as error:
        print(f"queued is not running? cannot connect to {default_socket_path()}: {error}", file=sys.stderr)
        return 3
    with client:
        info = client.call("daemon.info")
        print(f"queued {info['version']} (pid {info['pid']}, audio {info['audio']}, video {info['video']})")
        client.subscribe(progress_interval=5)
        if argv:
            try:
                # The daemon accepts absolute paths and file:// URLs only.
                ids = client.call("queue.add", items=[os.path.abspath(f) for f in argv])["ids"]
            except QueuedError as error:
                print(f"queue.add: {error}", file=sys.stderr)
                return 1
            print(f"queued ids {ids}")
            client.call("player.play", id=ids[0])
        status = client.call("player.status")
        print(f"state {status['state']}, current item {status['currentId']}; Ctrl-C to stop watching")
        try:
            for name, params in client.events():
                print(_describe(name, params), flush=True)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
