#!/usr/bin/env python3
"""Checks MQTT messages against Protocol/queued.asyncapi.yaml: each message's topic names its channel (with
its parameters), and its payload must validate against that channel's message schema.

    validate_asyncapi.py MESSAGES.jsonl     # lines {"topic": T, "payload": <JSON, or null for an empty payload>}
    validate_asyncapi.py --self-test        # the document loads and every channel's schema resolves

Prints each failure and closes with `N passed, M failed`; exit status 1 when M > 0 (2 for a usage error or a
document that cannot be loaded). Needs PyYAML and jsonschema (4.x).
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

try:
    import jsonschema
    import yaml
except ImportError as error:  # pragma: no cover
    sys.stderr.write(f"validate_asyncapi.py: needs PyYAML and jsonschema: {error}\n")
    raise SystemExit(2)
try:  # jsonschema >= 4.18 resolves $refs with `referencing`; older ones (Debian 12 has 4.10) with RefResolver.
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7
except ImportError:  # pragma: no cover
    Registry = None

DOCUMENT = Path(__file__).resolve().parents[2] / "Protocol" / "queued.asyncapi.yaml"
BASE = "urn:queued-asyncapi"


def load(path: Path = DOCUMENT):
    document = yaml.safe_load(path.read_text())
    channels = []
    for name, channel in document["channels"].items():
        pattern = "^" + re.sub(r"\\\{[a-z]+\\\}", "[^/+#]+", re.escape(name)) + "$"
        operation = channel.get("subscribe") or channel.get("publish")
        reference = operation["message"]["$ref"]
        message = resolve(document, reference)
        channels.append((name, re.compile(pattern), message["payload"]["$ref"]))
    return document, channels


def resolve(document, reference: str):
    node = document
    for part in reference.lstrip("#/").split("/"):
        node = node[part]
    return node


def validator(document, reference: str):
    if Registry is not None:
        registry = Registry().with_resource(BASE, Resource.from_contents(document, default_specification=DRAFT7))
        return jsonschema.Draft7Validator({"$ref": BASE + reference}, registry=registry)
    resolver = jsonschema.RefResolver(BASE, document)  # pragma: no cover
    return jsonschema.Draft7Validator({"$ref": BASE + reference}, resolver=resolver)  # pragma: no cover


def check(document, channels, topic: str, payload) -> list[str]:
    for name, pattern, reference in channels:
        if pattern.match(topic):
            if payload is None:  # an empty retained message clears a topic
                return []
            return [f"{topic}: {error.message}" for error in validator(document, reference).iter_errors(payload)]
    return [f"{topic}: no channel of the document has this topic"]


def main(arguments: list[str]) -> int:
    try:
        document, channels = load()
    except Exception as error:  # noqa: BLE001
        print(f"cannot load {DOCUMENT}: {error}")
        return 2
    if arguments == ["--self-test"]:
        for name, _, reference in channels:
            validator(document, reference).check_schema(resolve(document, reference))
        print(f"{len(channels)} passed, 0 failed")
        return 0
    if len(arguments) != 1:
        print(__doc__)
        return 2
    passed = failed = 0
    for line in Path(arguments[0]).read_text().splitlines():
        if not line.strip():
            continue
        message = json.loads(line)
        failures = check(document, channels, message["topic"], message.get("payload"))
        if failures:
            failed += 1
            for failure in failures:
                print("FAIL", failure)
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
