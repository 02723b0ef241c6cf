#!/usr/bin/env python3
"""Conformance checks of queued's control protocol against Protocol/queued.openrpc.json.

Library:

    from validate import load
    api = load()                                   # Protocol/queued.openrpc.json next to this repo
    api.check_request({"jsonrpc": "2.0", "id": 1, "method": "queue.add", "params": {"items": ["/a.mp4"]}})
    api.check_response("queue.add", {"jsonrpc": "2.0", "id": 1, "result": {"ids": [1]}})
    api.check_notification({"jsonrpc": "2.0", "method": "event.queueChanged", "params": {"version": 3}})

Each check returns a list of failure messages; an empty list means the message conforms.

CLI:

    validate.py --transcript FILE    # JSON lines {"direction", "method", "message"[, "valid"]}
    validate.py --self-test          # the document's own examples against its own schemas

Both print each failure and close with the line `N passed, M failed`; the exit status is 1 when M > 0
(2 for a usage error or a document that cannot be loaded). Needs the `jsonschema` package (4.x).
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
import urllib.parse
from pathlib import Path
from typing import Any, Iterable

try:
    import jsonschema
except ImportError as error:  # pragma: no cover
    sys.stderr.write(f"validate.py: needs the jsonschema package (pip install jsonschema): {error}\n")
    raise SystemExit(2)
try:  # jsonschema >= 4.18 resolves $refs with `referencing`; older ones (Debian 12 has 4.10) with RefResolver.
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7
except ImportError:  # pragma: no cover
    Registry = None

HERE = Path(__file__).resolve().parent
DEFAULT_DOCUMENT = HERE.parent.parent / "Protocol" / "queued.openrpc.json"
META_DIR = HERE / "meta"
DOC_URI = "https://queued.invalid/queued.openrpc.json"  # a name only: resolved from memory, never fetched
STANDARD_CODES = {-32700, -32600, -32601, -32602, -32603}
MISSING = object()


def _pointer(*tokens: Any) -> str:
    """A JSON pointer (as a URI fragment) from path tokens."""
    escaped = (str(t).replace("~", "~0").replace("/", "~1") for t in tokens)
    return "".join("/" + urllib.parse.quote(t, safe="") for t in escaped)


def _draft7_validator(schema: Any, store: dict[str, Any]):
    """A draft-07 validator whose `$ref`s to the URIs in `store` resolve to those documents, offline."""
    if Registry is not None:
        registry = Registry().with_resources((uri, Resource(document, DRAFT7)) for uri, document in store.items())
        return jsonschema.Draft7Validator(schema, registry=registry)
    resolver = jsonschema.RefResolver.from_schema(schema, store=dict(store))
    return jsonschema.Draft7Validator(schema, resolver=resolver)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(value: Any, limit: int = 120) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ApiDescription:
    """The OpenRPC document with its `$ref`s resolvable and schema validators ready."""

    def __init__(self, document: dict[str, Any]):
        self.document = document
        self._store = {DOC_URI: document}
        self._validators: dict[str, Any] = {}
        self.methods: dict[str, dict[str, Any]] = {}
        self._method_pointer: dict[str, str] = {}
        for index, entry in enumerate(document.get("methods", [])):
            method, pointer = self.resolve(entry, _pointer("methods", index))
            self.methods[method["name"]] = method
            self._method_pointer[method["name"]] = pointer
        self.notifications: dict[str, dict[str, Any]] = {}
        self._notification_pointer: dict[str, str] = {}
        for index, entry in enumerate(document.get("x-notifications", [])):
            self.notifications[entry["name"]] = entry
            self._notification_pointer[entry["name"]] = _pointer("x-notifications", index)
        self.standard_codes = {self.resolve(e)[0]["code"] for e in document.get("x-standardErrors", [])}
        self.standard_codes |= STANDARD_CODES
        self.error_data = {int(code): _pointer("x-errorData", code) for code in document.get("x-errorData", {})}

    # ----- references ---------------------------------------------------------------------------------------

    def resolve(self, value: Any, pointer: str = "") -> tuple[Any, str]:
        """Follows OpenRPC-level `{"$ref": "#/..."}` objects (content descriptors, errors, …) to their target."""
        seen = set()
        while isinstance(value, dict) and isinstance(value.get("$ref"), str) and value["$ref"].startswith("#"):
            ref = value["$ref"]
            if ref in seen:
                raise ValueError(f"circular $ref {ref}")
            seen.add(ref)
            pointer = ref[1:]
            value = self.at(pointer)
        return value, pointer

    def at(self, pointer: str) -> Any:
        node: Any = self.document
        for raw in pointer.split("/")[1:]:
            token = urllib.parse.unquote(raw).replace("~1", "/").replace("~0", "~")
            node = node[int(token)] if isinstance(node, list) else node[token]
        return node

    def _validator(self, pointer: str):
        validator = self._validators.get(pointer)
        if validator is None:
            self.at(pointer)  # fail early (KeyError) on a dangling pointer
            validator = _draft7_validator({"$ref": f"{DOC_URI}#{pointer}"}, self._store)
            self._validators[pointer] = validator
        return validator

    def schema_errors(self, pointer: str, instance: Any, what: str) -> list[str]:
        """Validates `instance` against the schema at `pointer`; one message per schema violation."""
        failures = []
        errors = self._validator(pointer).iter_errors(instance)
        for error in sorted(errors, key=lambda e: [str(p) for p in e.path]):
            message = error.message
            if error.validator in ("oneOf", "anyOf"):
                # "… is not valid under any of the given schemas" alone says little: add the likeliest cause.
                if isinstance(error.schema, dict) and isinstance(error.schema.get("description"), str) \
                        and len(error.schema["description"]) < 80:
                    message = f"{_short(error.instance, 60)}: {error.schema['description']}"
                elif error.context:
                    # Prefer the alternative of the right type: its complaint is the informative one.
                    pertinent = [e for e in error.context if e.validator != "type"] or error.context
                    best = jsonschema.exceptions.best_match(pertinent)
                    message = f"{_short(error.instance, 60)} matches no alternative; closest: {best.message}"
            where = "".join(f"[{p!r}]" if isinstance(p, str) else f"[{p}]" for p in error.absolute_path)
            failures.append(f"{what}{where}: {message}")
        return failures

    def component_schema(self, name: str) -> str:
        return _pointer("components", "schemas", name)

    # ----- methods ------------------------------------------------------------------------------------------

    def param_descriptors(self, method: str) -> list[tuple[dict[str, Any], str]]:
        base = self._method_pointer[method]
        return [self.resolve(p, f"{base}/params/{i}") for i, p in enumerate(self.methods[method]["params"])]

    def declared_error_codes(self, method: str) -> set[int]:
        return {self.resolve(e)[0]["code"] for e in self.methods.get(method, {}).get("errors", [])}

    def check_params(self, method: str, params: Any = MISSING) -> list[str]:
        """Params of a request to `method`: by name (object), by position (array) or absent."""
        if method not in self.methods:
            return [f"unknown method {method!r}"]
        what = f"{method} params"
        spec = self.methods[method]
        structure = spec.get("paramStructure", "either")
        descriptors = self.param_descriptors(method)
        names = [d["name"] for d, _ in descriptors]
        if params is MISSING:
            given: dict[str, Any] = {}
        elif isinstance(params, list):
            if structure == "by-name":
                return [f"{what}: must be given by name (an object)"]
            if len(params) > len(descriptors):
                return [f"{what}: {len(params)} positional params, the method takes at most {len(descriptors)}"]
            given = dict(zip(names, params))
        elif isinstance(params, dict):
            if structure == "by-position":
                return [f"{what}: must be given by position (an array)"]
            given = params
        else:
            return [f"{what}: must be an object or an array, not {_short(params)}"]
        failures = [f"{what}: unknown parameter {name!r}" for name in given if name not in names]
        present: dict[str, Any] = {}
        for descriptor, pointer in descriptors:
            name, schema = descriptor["name"], f"{pointer}/schema"
            value = given.get(name, MISSING)
            # x-transport.nullParams: null counts as absent unless the schema takes null as a value.
            if value is None and not self._accepts_null(schema):
                value = MISSING
                if descriptor.get("required"):
                    failures.append(f"{what}: required parameter {name!r} is null")
                    continue
            if value is MISSING:
                if descriptor.get("required"):
                    failures.append(f"{what}: missing required parameter {name!r}")
                continue
            present[name] = value
            failures += self.schema_errors(schema, value, f"{what}.{name}")
        if "x-paramsSchema" in spec:
            failures += self.schema_errors(f"{self._method_pointer[method]}/x-paramsSchema", present, what)
        return failures

    def _accepts_null(self, pointer: str) -> bool:
        return not any(True for _ in self._validator(pointer).iter_errors(None))

    def check_request(self, message: Any) -> list[str]:
        """A request or client notification (or a batch of them)."""
        if isinstance(message, list):
            if not message:
                return ["request: an empty batch"]
            return [f"batch[{i}] {f}" for i, m in enumerate(message) for f in self.check_request(m)]
        if not isinstance(message, dict):
            return [f"request: not an object: {_short(message)}"]
        failures = [f"request: unexpected member {k!r}" for k in message
                    if k not in ("jsonrpc", "method", "params", "id")]
        if message.get("jsonrpc") != "2.0":
            failures.append('request: "jsonrpc" must be "2.0"')
        if "id" in message and not (message["id"] is None or isinstance(message["id"], (str, float))
                                    or _is_int(message["id"])):
            failures.append(f"request: id must be a string, number or null, not {_short(message['id'])}")
        method = message.get("method")
        if not isinstance(method, str):
            return failures + ["request: method must be a string"]
        return failures + self.check_params(method, message.get("params", MISSING))

    def check_result(self, method: str, result: Any) -> list[str]:
        if method not in self.methods:
            return [f"{method} result: unknown method"]
        _, pointer = self.resolve(self.methods[method]["result"], f"{self._method_pointer[method]}/result")
        return self.schema_errors(f"{pointer}/schema", result, f"{method} result")

    def check_error(self, method: str, error: Any) -> list[str]:
        """An error object: its shape, that the code is standard or declared for `method`, its `data`."""
        what = f"{method} error"
        if not isinstance(error, dict):
            return [f"{what}: not an object: {_short(error)}"]
        failures = [f"{what}: unexpected member {k!r}" for k in error if k not in ("code", "message", "data")]
        code = error.get("code")
        if not _is_int(code):
            return failures + [f"{what}: code must be an integer, not {_short(code)}"]
        if not isinstance(error.get("message"), str) or not error["message"].strip():
            failures.append(f"{what}: message must be a non-empty string")
        if code not in self.standard_codes and code not in self.declared_error_codes(method):
            failures.append(f"{what}: code {code} is neither a standard JSON-RPC error nor declared for {method}")
        if code in self.error_data:
            if "data" not in error:
                failures.append(f"{what}: code {code} must carry data")
            else:
                failures += self.schema_errors(self.error_data[code], error["data"], f"{what} {code} data")
        return failures

    def check_response(self, method: str | list[str], message: Any) -> list[str]:
        """A response to a request for `method` (or a batch of responses, with one method each)."""
        if isinstance(message, list):
            methods = method if isinstance(method, list) else [method] * len(message)
            if not message or len(methods) != len(message):
                return ["response: a batch must be non-empty and have one method per response"]
            return [f"batch[{i}] {f}" for i, (m, r) in enumerate(zip(methods, message))
                    for f in self.check_response(m, r)]
        if not isinstance(message, dict):
            return [f"{method} response: not an object: {_short(message)}"]
        failures = [f"{method} response: unexpected member {k!r}" for k in message
                    if k not in ("jsonrpc", "result", "error", "id")]
        if message.get("jsonrpc") != "2.0":
            failures.append(f'{method} response: "jsonrpc" must be "2.0"')
        if "id" not in message:
            failures.append(f"{method} response: id is missing")
        elif not (message["id"] is None or isinstance(message["id"], (str, float)) or _is_int(message["id"])):
            failures.append(f"{method} response: id must be a string, number or null")
        if ("result" in message) == ("error" in message):
            return failures + [f"{method} response: needs exactly one of result and error"]
        if "result" in message:
            return failures + self.check_result(method, message["result"])
        return failures + self.check_error(method, message["error"])

    def check_notification(self, message: Any) -> list[str]:
        """A server-to-client notification (`event.*`)."""
        if not isinstance(message, dict):
            return [f"notification: not an object: {_short(message)}"]
        failures = [f"notification: unexpected member {k!r}" for k in message
                    if k not in ("jsonrpc", "method", "params")]
        if message.get("jsonrpc") != "2.0":
            failures.append('notification: "jsonrpc" must be "2.0"')
        name = message.get("method")
        if name not in self.notifications:
            return failures + [f"notification: unknown method {_short(name)}"]
        if "params" not in message:
            return failures + [f"{name}: params missing"]
        return failures + self.schema_errors(f"{self._notification_pointer[name]}/params", message["params"],
                                             f"{name} params")


def load(path: str | Path | None = None) -> ApiDescription:
    with open(path or DEFAULT_DOCUMENT, encoding="utf-8") as file:
        return ApiDescription(json.load(file))


# ----- CLI --------------------------------------------------------------------------------------------------


class Tally:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def record(self, label: str, failures: Iterable[str], expect_valid: bool = True) -> None:
        failures = list(failures)
        if expect_valid and failures:
            self.failed += 1
            for failure in failures:
                print(f"FAIL {label}: {failure}")
        elif not expect_valid and not failures:
            self.failed += 1
            print(f"FAIL {label}: expected to be refused, but it validates")
        else:
            self.passed += 1

    def close(self) -> int:
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def run_transcript(api: ApiDescription, path: str) -> int:
    try:
        stream = sys.stdin if path == "-" else open(path, encoding="utf-8")
    except OSError as error:
        print(f"validate.py: cannot read {path}: {error}", file=sys.stderr)
        return 2
    tally = Tally()
    with stream:
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            label = f"line {number}"
            try:
                entry = json.loads(line)
            except ValueError as error:
                tally.record(label, [f"not JSON: {error}"])
                continue
            if not isinstance(entry, dict) or "message" not in entry:
                tally.record(label, ["an entry is an object with direction, method and message"])
                continue
            direction, method, message = entry.get("direction"), entry.get("method"), entry["message"]
            expect_valid = entry.get("valid", True) is not False
            label = f"line {number} {direction} {method if isinstance(method, str) else ''}".rstrip()
            if direction == "request":
                failures = api.check_request(message)
                sent = message.get("method") if isinstance(message, dict) else None
                if isinstance(method, str) and sent is not None and sent != method:
                    failures.append(f"entry method {method!r} differs from the message's {sent!r}")
            elif direction == "response":
                if not (isinstance(method, str) or isinstance(method, list)):
                    failures = ["a response entry needs the method of its request"]
                else:
                    failures = api.check_response(method, message)
            elif direction == "notification":
                failures = api.check_notification(message)
                sent = message.get("method") if isinstance(message, dict) else None
                if method is not None and method != sent:
                    failures.append(f"entry method {method!r} differs from the message's {sent!r}")
            else:
                failures = [f"direction must be request, response or notification, not {_short(direction)}"]
            tally.record(label, failures, expect_valid)
    return tally.close()


def _request(method: str, params: Any = MISSING, id_: Any = 1) -> dict[str, Any]:
    message = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not MISSING:
        message["params"] = params
    return message


def _meta_failures(document: dict[str, Any]) -> list[str] | None:
    """Validates the document against the vendored OpenRPC meta-schema; None when it is not there."""
    openrpc, json_schema = META_DIR / "openrpc-meta-schema.json", META_DIR / "json-schema-tools-meta-schema.json"
    if not (openrpc.exists() and json_schema.exists()):
        return None
    meta = json.loads(openrpc.read_text(encoding="utf-8"))
    tools = json.loads(json_schema.read_text(encoding="utf-8"))
    validator = _draft7_validator(meta, {"https://meta.json-schema.tools": tools,
                                         "https://meta.json-schema.tools/": tools})
    return [f"/{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in validator.iter_errors(document)]


def _structure_failures(api: ApiDescription) -> list[str]:
    """Rules of this project's document that the meta-schema does not state."""
    doc, failures = api.document, []
    if doc.get("openrpc") != "1.2.6":
        failures.append('openrpc must be "1.2.6"')
    for name, method in api.methods.items():
        for key in ("summary", "description", "result", "examples"):
            if not method.get(key):
                failures.append(f"{name}: no {key}")
        if method.get("paramStructure") != "either":
            failures.append(f'{name}: paramStructure must be "either"')
        names = [d["name"] for d, _ in api.param_descriptors(name)]
        if len(set(names)) != len(names):
            failures.append(f"{name}: duplicate parameter names")
        for error in method.get("errors", []):
            try:
                resolved, _ = api.resolve(error)
            except (KeyError, IndexError, ValueError) as problem:
                failures.append(f"{name}: error reference does not resolve: {problem}")
                continue
            if resolved.get("code") in api.standard_codes and resolved.get("code") != -32602:
                failures.append(f"{name}: lists standard error {resolved.get('code')} (any method can return it)")
        for example in method.get("examples", []):
            example, _ = api.resolve(example)
            if "result" not in example:
                failures.append(f"{name} example {example.get('name')!r}: no result")
            for param in example.get("params", []):
                if api.resolve(param)[0]["name"] not in names:
                    failures.append(f"{name} example {example['name']!r}: unknown parameter {param['name']!r}")
    events = api.at(api.component_schema("EventName"))["enum"]
    expected = {f"event.{e}" for e in events}
    if set(api.notifications) != expected:
        failures.append(f"x-notifications {sorted(api.notifications)} do not match EventName {sorted(expected)}")
    for name, entry in api.notifications.items():
        if entry.get("messageDirection") != "serverToClient":
            failures.append(f'{name}: messageDirection must be "serverToClient"')
        if not entry.get("examples"):
            failures.append(f"{name}: no examples")
    if {api.resolve(e)[0]["code"] for e in doc.get("x-standardErrors", [])} != STANDARD_CODES:
        failures.append("x-standardErrors must list exactly the five standard JSON-RPC errors")
    for label, pointer in [("x-errorData", p) for p in api.error_data.values()]:
        try:
            api.at(pointer)
            api._validator(pointer)
        except (KeyError, IndexError, jsonschema.exceptions.SchemaError) as problem:
            failures.append(f"{label}: {problem}")
    return failures


# Messages that must be refused: proof that the schemas are strict where the contract is.
NEGATIVE_CASES: list[tuple[str, str, Any, Any]] = [
    # (label, kind, method, message); kind: request / response / notification
    ("ItemInput with an unknown key", "request", None,
     _request("queue.add", {"items": [{"uri": "/a.mp4", "shortestTrack": True}]})),
    ("ItemInput loops < 0", "request", None, _request("queue.add", {"items": [{"uri": "/a.mp4", "loops": -1}]})),
    ("ItemInput trackEnd not auto/shortest/longest", "request", None,
     _request("queue.add", {"items": [{"uri": "/a.mp4", "trackEnd": "video"}]})),
    ("queue.add without items", "request", None, _request("queue.add", {})),
    ("queue.add with an unknown parameter", "request", None, _request("queue.add", {"items": ["/a"], "x": 1})),
    ("queue.insert with index and after", "request", None,
     _request("queue.insert", {"items": ["/a.mp4"], "index": 0, "after": 3})),
    ("queue.insert with neither index nor after", "request", None, _request("queue.insert", [["/a.mp4"]])),
    ("queue.list limit over 10000", "request", None, _request("queue.list", {"limit": 10001})),
    ("too many positional params", "request", None, _request("player.seek", [1, True, 3])),
    ("player.set with nothing to set", "request", None, _request("player.set", {})),
    ("player.set volume 101", "request", None, _request("player.set", {"volume": 101})),
    ("player.set fit unknown", "request", None, _request("player.set", {"fit": "zoom"})),
    ("a required parameter given as null", "request", None, _request("queue.move", [None, 0])),
    ("queue.add with no items", "request", None, _request("queue.add", {"items": []})),
    ("invalid params with a numeric param name", "response", "queue.add",
     {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "bad", "data": {"param": 0, "reason": "x"}}}),
    ("events.subscribe interval under 0.05 s", "request", None,
     _request("events.subscribe", {"progressInterval": 0.01})),
    ("events.subscribe unknown event", "request", None, _request("events.subscribe", {"events": ["seek"]})),
    ("request with jsonrpc 1.0", "request", None, {"jsonrpc": "1.0", "id": 1, "method": "player.status"}),
    ("Status with an extra key", "response", "player.status",
     {"jsonrpc": "2.0", "id": 1, "result": None}),  # the player.status example plus one key, filled in below
    ("Status without display", "response", "player.status",
     {"jsonrpc": "2.0", "id": 1, "result": None}),  # the player.status example without `display`, filled in below
    ("Status display power auto (a request, not a state)", "response", "player.status",
     {"jsonrpc": "2.0", "id": 1, "result": None}),  # filled in below
    ("display.power without power", "request", None, _request("display.power", {})),
    ("display.power power dim", "request", None, _request("display.power", {"power": "dim"})),
    ("QueueItem missing a key", "response", "queue.update",
     {"jsonrpc": "2.0", "id": 1, "result": {"item": {"id": 1, "uri": "/a.mp4"}}}),
    ("QueueItem without transition", "response", "queue.update",
     {"jsonrpc": "2.0", "id": 1, "result": None}),  # the queue.update example without `transition`, filled in below
    ("Transition type wipe (not a transition)", "request", None,
     _request("queue.add", {"items": [{"uri": "/a.mp4", "transition": {"type": "wipe", "duration": 1}}]})),
    ("Transition color on a crossfade (a dip's only)", "request", None,
     _request("queue.add", {"items": [{"uri": "/a.mp4", "transition": {"type": "crossfade", "duration": 1,
                                                                      "color": "#000000"}}]})),
    ("Transition color on a fade (a dip's only)", "request", None,
     _request("queue.update", {"id": 1, "transition": {"type": "fade", "duration": 1, "color": "#000000"}})),
    ("QueueItem without motion", "response", "queue.update",
     {"jsonrpc": "2.0", "id": 1, "result": None}),  # the queue.update example without `motion`, filled in below
    ("Motion frame width 1.5 (outside the picture)", "request", None,
     _request("queue.add", {"items": [{"uri": "/a.png", "motion": {
         "from": {"x": 0, "y": 0, "width": 1.5, "height": 1}, "to": {"x": 0.25, "y": 0.2, "width": 0.5, "height": 0.5}}}]})),
    ("Motion with an unknown key", "request", None,
     _request("queue.update", {"id": 1, "motion": {
         "from": {"x": 0, "y": 0, "width": 1, "height": 1}, "to": {"x": 0.25, "y": 0.2, "width": 0.5, "height": 0.5},
         "duration": 8}})),
    ("undeclared error code", "response", "player.status",
     {"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "No item with id 4.", "data": {"id": 4}}}),
    ("invalid params without data", "response", "queue.add",
     {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Bad."}}),
    ("response with result and error", "response", "player.pause",
     {"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": -32603, "message": "Oops."}}),
    ("response without id", "response", "queue.clear", {"jsonrpc": "2.0", "result": {"version": 1}}),
    ("unknown notification", "notification", None, {"jsonrpc": "2.0", "method": "event.seek", "params": {}}),
    ("notification with an id", "notification", None,
     {"jsonrpc": "2.0", "id": 3, "method": "event.queueChanged", "params": {"version": 1}}),
    ("progress with a string id", "notification", None,
     {"jsonrpc": "2.0", "method": "event.progress", "params": {"id": "8", "position": 1, "duration": None,
                                                               "play": 1}}),
    ("itemEnded with an unknown reason", "notification", None,
     {"jsonrpc": "2.0", "method": "event.itemEnded", "params": {"id": 8, "play": 1, "reason": "done",
                                                                "error": None}}),
]


def run_self_test(api: ApiDescription) -> int:
    tally = Tally()
    meta = _meta_failures(api.document)
    if meta is None:
        print("note: Tests/conformance/meta/ is missing; the OpenRPC meta-schema check is skipped")
    else:
        tally.record("document against the OpenRPC meta-schema", meta)
    tally.record("document structure", _structure_failures(api))

    status_example = None
    item_example = None
    for name, method in api.methods.items():
        names = [d["name"] for d, _ in api.param_descriptors(name)]
        declared = api.declared_error_codes(name)
        for number, example in enumerate(method.get("examples", []), 1):
            example, _ = api.resolve(example)
            label = f"{name} example {example.get('name', number)!r}"
            params = {p["name"]: p["value"] for p in (api.resolve(x)[0] for x in example.get("params", []))}
            tally.record(f"{label} params by name", api.check_request(_request(name, params, number)))
            # By position too, when the given names are a prefix of the declared order.
            if list(params) == names[: len(params)]:
                tally.record(f"{label} params by position",
                             api.check_request(_request(name, list(params.values()), number)))
            if "result" in example:
                result = api.resolve(example["result"])[0]["value"]
                tally.record(f"{label} result",
                             api.check_response(name, {"jsonrpc": "2.0", "id": number, "result": result}))
                if name == "player.status" and status_example is None:
                    status_example = result
                if name == "queue.update" and item_example is None:
                    item_example = result["item"]
        for code in sorted(declared):
            error = next(api.resolve(e)[0] for e in method.get("errors", []) if api.resolve(e)[0]["code"] == code)
            tally.record(f"{name} error {code} example",
                         api.check_response(name, {"jsonrpc": "2.0", "id": 1, "error": error}))
    for name, entry in api.notifications.items():
        for number, example in enumerate(entry.get("examples", []), 1):
            message = {"jsonrpc": "2.0", "method": name, "params": example["value"]}
            tally.record(f"{name} example {example.get('name', number)!r}", api.check_notification(message))
    for key, error in api.document.get("components", {}).get("errors", {}).items():
        if error.get("code") in api.error_data:
            tally.record(f"components/errors/{key} data",
                         api.schema_errors(api.error_data[error["code"]], error.get("data"), key))

    for label, kind, method, message in NEGATIVE_CASES:
        message = copy.deepcopy(message)
        if label == "Status with an extra key":
            message["result"] = {**(status_example or {}), "extra": 1}
        elif label == "Status without display":
            message["result"] = {k: v for k, v in (status_example or {}).items() if k != "display"}
        elif label == "QueueItem without transition":
            message["result"] = {"item": {k: v for k, v in (item_example or {}).items() if k != "transition"}}
        elif label == "QueueItem without motion":
            message["result"] = {"item": {k: v for k, v in (item_example or {}).items() if k != "motion"}}
        elif label.startswith("Status display power auto"):
            message["result"] = {**(status_example or {}),
                                 "display": {"power": "auto", "source": "manual", "nextChange": None, "error": None}}
        if kind == "request":
            failures = api.check_request(message)
        elif kind == "response":
            failures = api.check_response(method, message)
        else:
            failures = api.check_notification(message)
        tally.record(f"refuses: {label}", failures, expect_valid=False)
    return tally.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check queued protocol messages against the OpenRPC document.")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--transcript", metavar="FILE",
                      help='JSON lines of {"direction": "request"|"response"|"notification", "method": ..., '
                           '"message": {...}} ("-" reads standard input); an entry with "valid": false must '
                           "be refused")
    mode.add_argument("--self-test", action="store_true",
                      help="validate the document's own examples (and known-bad messages) against its schemas")
    parser.add_argument("--document", metavar="PATH", default=str(DEFAULT_DOCUMENT),
                        help="the OpenRPC document (default: %(default)s)")
    args = parser.parse_args(argv)
    try:
        api = load(args.document)
    except (OSError, ValueError, KeyError) as error:
        print(f"validate.py: cannot load {args.document}: {error}", file=sys.stderr)
        return 2
    if args.self_test:
        return run_self_test(api)
    return run_transcript(api, args.transcript)


if __name__ == "__main__":
    sys.exit(main())
