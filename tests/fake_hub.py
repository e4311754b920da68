"""Someone in the middle of the café's Wi-Fi, answering a joining table in the hub's place (HTTPS on loopback).

It says the table was accepted, hands it a salt, and answers the claim with a bundle of its own — its own broker,
its own CA — sealed with a key from a code it made up, since it cannot know the one the hub's staff page shows.
What a table must do with that: refuse it and keep nothing (`cafe/handover.py`, docs/decisions.md P34-7).
"""

from __future__ import annotations

import json
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from cafe import certs, handover


class FakeHub:
    def __init__(self, folder: Path, cafe: str = "nord"):
        self.cafe = cafe
        self.salt = handover.new_salt()
        self.claims: list[dict[str, Any]] = []
        pair, _ = certs.ensure_server(folder, "fake-hub", ["127.0.0.1"], None)
        ca_cert, _ = certs.make_ca("someone else's CA")
        self.ca = certs.cert_pem(ca_cert).decode()
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(pair.cert, pair.key)
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                message = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))))
                self._send(fake.answer(self.path, message))

            def _send(self, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.server.server_address[1]}"

    def answer(self, path: str, message: dict[str, Any]) -> dict[str, Any]:
        table, key = message["table"], message["key"]
        if path == "/pair/hello":
            return {"v": 1, "cafe": self.cafe, "table": table, "key": key, "state": "accepted", "salt": self.salt,
                    "tries_left": 5}
        self.claims.append(message)
        instance = handover.Instance(self.cafe, table, key, self.salt)
        guessed = handover.derive(handover.new_code(), instance)
        bundle = handover.Bundle(self.cafe, table, "127.0.0.1:1", f"table-{table}", "their-password-1234", self.ca)
        return handover.seal(guessed, instance, bundle)

    def __enter__(self) -> FakeHub:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
