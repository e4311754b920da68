"""`python -m hw.sim`: a standalone simulated table printing every input as a JSON line, or one command sent
to a control socket (`--send SOCKET JSON`)."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from hw.config import load, load_default_sim
from hw.inputs import Input
from hw.sim.control import ControlClient
from hw.sim.table import SimHardware


def input_to_json(item: Input) -> str:
    return json.dumps({"input": type(item).__name__, **asdict(item)})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hw.sim", description="Run the simulated table.")
    parser.add_argument("--config", help="table TOML (default: the simulation default)")
    parser.add_argument("--socket", default="referee-sim.sock", help="control socket path")
    parser.add_argument("--send", nargs=2, metavar=("SOCKET", "JSON"), help="send one command and print the reply")
    args = parser.parse_args(argv)
    if args.send:
        with ControlClient(args.send[0]) as client:
            request = json.loads(args.send[1])
            print(json.dumps(client.send(request.pop("cmd"), **request)))
        return 0
    config = load(args.config) if args.config else load_default_sim()
    with SimHardware(config) as sim:
        sim.serve(args.socket)
        print(f"simulated table {config.name!r}: control socket {args.socket}", file=sys.stderr)
        inputs = sim.inputs
        if inputs is None:  # (a table made without a sink of its own has its queue)
            return 1
        try:
            while True:
                print(input_to_json(inputs.get()), flush=True)
        except KeyboardInterrupt:
            return 0


if __name__ == "__main__":
    sys.exit(main())
