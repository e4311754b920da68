"""Mosquitto's dynamic security plugin for a café: its config file, and the commands that add a table's user.

Debian's `mosquitto` package ships the plugin (`/usr/lib/<triplet>/mosquitto_dynamic_security.so`) and
`mosquitto_ctrl`. The plugin keeps users, roles and ACLs in one JSON file that the broker itself rewrites on
every change (`FILE.new`, then renamed: its folder must be the broker user's). Run-time changes are JSON
commands published to `$CONTROL/dynamic-security/v1` by an admin user; the answers come on `…/response`.

The café's file holds one client, `hub`, with two roles: `hub` (the contract's Access for the hub, from
`cafe.access`) and `hub-dynsec` (only the plugin's control topics, nothing else of the broker). When staff
accept a table the hub adds role and user `table-<id>` with the table's grants (`table_commands`).
The file is first made by `mosquitto_ctrl dynsec init`, so the password hash is Mosquitto's own.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cafe.access import HUB_USER, Grant, hub_grants, table_grants, table_user

PLUGIN = "mosquitto_dynamic_security.so"
PLUGIN_PLACES = ("/usr/lib/*/mosquitto_dynamic_security.so", "/usr/lib/mosquitto_dynamic_security.so",
                 "/usr/local/lib/mosquitto_dynamic_security.so", "/usr/lib/mosquitto/mosquitto_dynamic_security.so")
CONTROL_TOPIC = "$CONTROL/dynamic-security/v1"
RESPONSE_TOPIC = CONTROL_TOPIC + "/response"
HUB_ROLE, ADMIN_ROLE = "hub", "hub-dynsec"
MOSQUITTO_CTRL = "mosquitto_ctrl"
# Answers to a command that leave things as wanted: adding what is there already.
ALREADY = ("Role already exists", "ACL with this topic already exists", "Client already exists")


def find_plugin() -> str:
    """The plugin's path as this machine's mosquitto package installed it."""
    for pattern in PLUGIN_PLACES:
        found = sorted(glob.glob(pattern))
        if found:
            return found[0]
    raise FileNotFoundError(f"{PLUGIN} not found: install Debian's mosquitto (apt install mosquitto)")


def acls(grants: Sequence[Grant]) -> list[dict[str, Any]]:
    """The plugin's ACL entries for grants: a write is `publishClientSend`; a read is a subscription (literal, or
    a pattern for a filter) and `publishClientReceive`."""
    out: list[dict[str, Any]] = []
    for grant in grants:
        if grant.access == "write":
            out.append({"acltype": "publishClientSend", "topic": grant.topic, "allow": True})
            continue
        wild = "#" in grant.topic or "+" in grant.topic
        out.append({"acltype": "subscribePattern" if wild else "subscribeLiteral", "topic": grant.topic,
                    "allow": True})
        out.append({"acltype": "publishClientReceive", "topic": grant.topic, "allow": True})
    return out


def admin_acls() -> list[dict[str, Any]]:
    """Managing users and roles through the plugin, and nothing else."""
    control = "$CONTROL/dynamic-security/#"
    return [{"acltype": kind, "topic": control, "allow": True}
            for kind in ("publishClientSend", "publishClientReceive", "subscribePattern", "unsubscribePattern")]


def _ctrl(tool: str | None) -> str:
    found = tool or shutil.which(MOSQUITTO_CTRL) or "/usr/bin/mosquitto_ctrl"
    if not Path(found).exists():
        raise FileNotFoundError(f"{MOSQUITTO_CTRL} not found: install Debian's mosquitto (apt install mosquitto)")
    return found


def _initial(password: str, tool: str | None) -> dict[str, Any]:
    """A fresh plugin file from `mosquitto_ctrl dynsec init` with `hub` as its admin (Mosquitto hashes the
    password), read back as JSON."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "dynsec.json"
        subprocess.run([_ctrl(tool), "dynsec", "init", str(path), HUB_USER, password], check=True,
                       capture_output=True, timeout=60)
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def write_config(path: Path, cafe: str, hub_password: str, *, renew: bool = False, tool: str | None = None) -> None:
    """Make the plugin's file, or bring an existing one up to date: the hub's roles as the contract says for
    `cafe`, its password renewed when `renew`. Tables' users and roles added at run time are kept. The broker
    reads the file when it starts (restart it after this)."""
    fresh = _initial(hub_password, tool) if renew or not path.exists() else None
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else fresh
    assert data is not None
    clients = [c for c in data.get("clients", []) if c.get("username") != HUB_USER]
    hub = next((c for c in data.get("clients", []) if c.get("username") == HUB_USER), None)
    if fresh is not None or hub is None:
        source = fresh if fresh is not None else _initial(hub_password, tool)
        hub = next(c for c in source["clients"] if c.get("username") == HUB_USER)
    hub = {**hub, "textName": "café hub", "roles": [{"rolename": HUB_ROLE}, {"rolename": ADMIN_ROLE}]}
    ours = {HUB_ROLE: acls(hub_grants(cafe)), ADMIN_ROLE: admin_acls()}
    roles = [r for r in data.get("roles", []) if r.get("rolename") not in (*ours, "admin")]
    roles += [{"rolename": name, "acls": entries} for name, entries in ours.items()]
    data.update(clients=[hub, *clients], roles=roles, groups=data.get("groups", []),
                defaultACLAccess={"publishClientSend": False, "publishClientReceive": True, "subscribe": False,
                                  "unsubscribe": True})
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=2)
    os.replace(tmp, path)


# ---------------------------------------------------------------- run-time commands (sent by the hub)


def table_first(cafe: str, table: str) -> list[dict[str, Any]]:
    """First round when staff accept a table: its role with the table's grants (completed if it exists), and
    what the broker knows of its user."""
    user = table_user(table)
    entries = acls(table_grants(cafe, table))
    return [{"command": "createRole", "rolename": user, "acls": entries},
            *({"command": "addRoleACL", "rolename": user, **entry} for entry in entries),
            {"command": "getClient", "username": user}]


def table_second(table: str, password: str, client: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Second round: a new user with its role, or an existing one's new password (which disconnects whoever
    used the old one) and its role if it lacks it."""
    user = table_user(table)
    if client is None:
        return [{"command": "createClient", "username": user, "password": password,
                 "textName": f"table {table}", "roles": [{"rolename": user}]}]
    commands: list[dict[str, Any]] = [{"command": "setClientPassword", "username": user, "password": password}]
    if user not in {r.get("rolename") for r in client.get("roles", [])}:
        commands.append({"command": "addClientRole", "username": user, "rolename": user})
    return commands


def failures(responses: Sequence[dict[str, Any]]) -> list[str]:
    """The errors among a round's answers that leave things not as wanted."""
    return [f"{r.get('command')}: {r['error']}" for r in responses
            if r.get("error") and r.get("error") not in ALREADY
            and not (r.get("command") == "getClient" and r.get("error") == "Client not found")]
