"""`scripts/cafe-broker.sh` (python -m cafe broker-config): the files a café's broker needs, made again safely."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cafe.broker import acl_text

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "cafe-broker.sh"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=60)


def test_the_script_writes_config_acl_and_passwords_and_keeps_them(tmp_path) -> None:
    out = tmp_path / "broker"
    done = run("--cafe", "nord", "--tables", "t1", "t2", "--out", str(out), "--port", "1884")
    assert done.returncode == 0, done.stderr
    conf = (out / "mosquitto.conf").read_text()
    assert "listener 1884\n" in conf and "allow_anonymous false" in conf and "persistence true" in conf
    assert f"password_file {out / 'passwd'}" in conf and f"acl_file {out / 'acl'}" in conf
    assert (out / "acl").read_text() == acl_text("nord", ["t1", "t2"])
    users = [line.split(":")[0] for line in (out / "passwd").read_text().splitlines()]
    assert users == ["hub", "table-t1", "table-t2"]
    assert (out / "passwords" / "table-t1").stat().st_mode & 0o077 == 0
    first = (out / "passwords" / "table-t1").read_text()
    assert run("--cafe", "nord", "--tables", "t1", "t2", "t3", "--out", str(out)).returncode == 0
    assert (out / "passwords" / "table-t1").read_text() == first  # a table keeps its password
    assert (out / "passwords" / "table-t3").exists()
    assert run("--cafe", "nord", "--tables", "t1", "--out", str(out), "--renew").returncode == 0
    assert (out / "passwords" / "table-t1").read_text() != first


def test_bad_ids_are_refused_with_a_message(tmp_path) -> None:
    done = run("--cafe", "Nord", "--tables", "t1", "--out", str(tmp_path / "x"))
    assert done.returncode == 2 and "café 'Nord'" in done.stderr
    done = run("--cafe", "nord", "--tables", "t1", "--out", str(tmp_path / "x"), "--conf-d")
    assert done.returncode == 0 and "persistence" not in (tmp_path / "x" / "mosquitto.conf").read_text()


def test_the_acl_names_the_contracts_topics() -> None:
    text = acl_text("nord", ["t1"])
    assert "user table-t1\ntopic write tabletop-referee/v1/nord/table/t1/status\n" in text
    assert "topic read tabletop-referee/v1/nord/#" in text and "topic write tabletop-referee/v1/nord/announce" in text
