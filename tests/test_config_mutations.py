"""Property: any mutation of the example config (values of every type, deleted, renamed and unknown keys,
TOML syntax) is either refused with a line number for every error, or accepted and then starts the kiosk
headless (simulated hardware) — never a traceback, and never "OK" followed by a failing start."""

from __future__ import annotations

import io
import json
import logging
import math
import re
import sys
import tempfile
from contextlib import redirect_stdout
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.__main__ import EX_CONFIG, main

EXAMPLE = (Path(__file__).resolve().parent.parent / "config" / "table.example.toml").read_text()
LINES = EXAMPLE.splitlines()
KEY = re.compile(r"^(\s*)([A-Za-z_]+)(\s*=\s*)(.*)$")
KEY_LINES = [i for i, line in enumerate(LINES) if KEY.match(line)]
KNOWN_KEYS = sorted({KEY.match(LINES[i]).group(2) for i in KEY_LINES} | {
    "pin_factory", "device", "max_line", "pull", "active", "data_dir", "admin_pin_hash", "type"})
HEADERS = ["[kiosk]", "[table]", "[buttons]", "[seats.x]", "[seats.north]", "[scanners.n2]", "[[seats]]",
           "[scanners.north.inner]", "[cafe]", "[seats]", "[kiosk.sub]"]


def toml_float(x: float) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(x) if "." in repr(x) or "e" in repr(x) else repr(x) + ".0"


VALUES = st.one_of(
    st.integers(-(10**9), 10**9).map(str),
    st.floats().map(toml_float),
    st.booleans().map(lambda b: "true" if b else "false"),
    st.text(max_size=10).map(lambda s: json.dumps(s)),
    st.sampled_from(['"de"', '"en"', '"/dev/ttyUSB0"', '""', '"relative/port"', '"CR"', '"LF"', '"CRLF"', '"up"',
                     '"down"', '"none"', '"low"', '"high"', '"sim"', '"wedge"', '"serial"', '"mock"', '"lgpio"',
                     '"north"', '"east"', '"nobody"', "[800, 480]", "[1, 2]", "[]", "{}", '{ confirm = "x" }',
                     '{ slap = "1" }', "1979-05-27", "07:32:00", '"pbkdf2_sha256$1000$s$' + "0" * 64 + '"',
                     "0", "-1", "5", "27", "28", "0.5", "9600", "115200", "8", "4096", "60000", "86400", "'\\x'"]),
    st.lists(st.integers(-5, 9000), max_size=3).map(lambda xs: "[" + ", ".join(map(str, xs)) + "]"),
)


@st.composite
def mutation(draw, lines: list[str]) -> list[str]:
    kind = draw(st.sampled_from(["value", "value", "value", "delete", "unknown", "rename", "header", "char",
                                 "dupe"]))
    keyed = [i for i, line in enumerate(lines) if KEY.match(line)] or [0]
    if kind == "value":
        i = draw(st.sampled_from(keyed))
        m = KEY.match(lines[i])
        if m:
            lines[i] = f"{m.group(1)}{m.group(2)}{m.group(3)}{draw(VALUES)}"
    elif kind == "delete" and lines:
        del lines[draw(st.integers(0, len(lines) - 1))]
    elif kind == "unknown":
        key = draw(st.one_of(st.sampled_from(KNOWN_KEYS), st.from_regex(r"[a-z_]{1,8}", fullmatch=True)))
        lines.insert(draw(st.integers(0, len(lines))), f"{key} = {draw(VALUES)}")
    elif kind == "rename":
        i = draw(st.sampled_from(keyed))
        m = KEY.match(lines[i])
        if m:
            lines[i] = f"{m.group(1)}{draw(st.sampled_from(KNOWN_KEYS))}{m.group(3)}{m.group(4)}"
    elif kind == "header":
        headers = [i for i, line in enumerate(lines) if line.startswith("[")] or [0]
        lines[draw(st.sampled_from(headers))] = draw(st.sampled_from(HEADERS))
    elif kind == "char" and lines:
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines[i])))
        c = draw(st.one_of(st.sampled_from(list("[]{}=\"'#,.\\ \t\n")), st.characters()))
        lines[i] = lines[i][:j] + c + lines[i][j + (1 if draw(st.booleans()) else 0):]
    elif kind == "dupe" and lines:
        i = draw(st.integers(0, len(lines) - 1))
        lines.insert(i, lines[i])
    return lines


@st.composite
def mutated_config(draw) -> str:
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 3))):
        lines = draw(mutation(lines))
    return "\n".join(lines) + "\n"


@settings(max_examples=200, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_config())
def test_a_mutated_config_is_refused_with_lines_or_starts(text: str) -> None:
    root, hook = logging.getLogger(), sys.excepthook
    handlers, level = list(root.handlers), root.level
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "table.toml"
            path.write_bytes(text.encode("utf-8", "surrogatepass"))
            out = io.StringIO()
            with redirect_stdout(out):
                code = main(["--check-config", str(path), "--log-level", "critical"])
            lines = out.getvalue().splitlines()
            start = ["--config", str(path), "--data-dir", str(Path(tmp) / "data"), "--log-level", "critical",
                     "--frames", "2"]
            if code == 0:
                assert lines[-1] == f"{path}: OK"
                assert main(["--sim", "--control", str(Path(tmp) / "c.sock"), *start]) == 0
            else:
                assert code == 1 and lines[-1] == f"{path}: NOT OK", lines
                errors = [line for line in lines[:-1] if ": warning: " not in line]
                assert errors and all(re.match(rf"{re.escape(str(path))}:\d+: ", line) for line in errors), lines
                assert main(start) == EX_CONFIG
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        sys.excepthook = hook
