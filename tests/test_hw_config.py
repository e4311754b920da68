"""The table config: valid files load; every kind of mistake is reported with its line."""

from __future__ import annotations

import textwrap

import pytest

from hw.config import check_config, default_sim_path, load, load_default_sim, loads
from referee.config_lines import ConfigError

GOOD = """\
[table]
name = "Table 3"

[buttons]
debounce_ms = 8

[seats.north]
confirm = 5
slap = 6
keys = { confirm = "1", slap = "q" }

[seats.south]
confirm = 13
slap = 19
pull = "down"

[scanners.north]
seat = "north"
port = "/dev/serial/by-path/usb-0:1"
baud = 115200
terminator = "CRLF"

[scanners.shared]
type = "wedge"
device = "/dev/input/by-id/usb-scanner-event-kbd"
terminator = "LF"
"""


def test_a_valid_config_loads_with_its_values():
    c = loads(GOOD, "good.toml")
    assert c.name == "Table 3" and c.debounce_ms == 8
    assert [s.name for s in c.seats] == ["north", "south"]
    north, south = c.seats
    assert (north.confirm, north.slap, north.pull_up, north.keys) == (5, 6, True, {"confirm": "1", "slap": "q"})
    assert (south.pull_up, south.active_high) == (False, None)
    assert [(p.seat, p.button, p.pin) for p in c.button_pins()] == [
        ("north", "confirm", 5), ("north", "slap", 6), ("south", "confirm", 13), ("south", "slap", 19)]
    sc = c.scanner_for("north")
    assert (sc.name, sc.port, sc.baud, sc.framing.terminator) == ("north", "/dev/serial/by-path/usb-0:1", 115200,
                                                                  "CRLF")
    assert c.scanner_for("south").name == "shared"  # no own scanner: the shared one


def test_shipped_example_and_simulation_default_are_valid():
    ok, messages = check_config("config/table.example.toml")
    assert ok, messages
    assert messages[-1].endswith("ok: 4 seats, 4 scanners")
    assert load("config/table.example.toml").scanner_for("west").type == "wedge"
    sim = load_default_sim()
    assert default_sim_path().is_file()
    assert len(sim.seats) == 4 and sim.pin_factory == "mock"


def errors(text: str) -> list[str]:
    with pytest.raises(ConfigError) as info:
        loads(textwrap.dedent(text), "t.toml")
    return str(info.value).splitlines()


def line_of(text: str, needle: str) -> int:
    lines = textwrap.dedent(text).splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def mistake(text: str, needle: str, fragment: str) -> None:
    """The config has exactly one error: on the line containing `needle`, mentioning `fragment`."""
    errs = errors(text)
    assert len(errs) == 1, errs
    assert errs[0].startswith(f"t.toml:{line_of(text, needle)}: "), errs
    assert fragment in errs[0], errs


SEATS = """
[seats.north]
confirm = 5
slap = 6
[seats.south]
confirm = 13
slap = 19
"""


def test_a_pin_used_twice_names_both_places():
    text = SEATS.replace("slap = 19", "slap = 6  # oops")
    mistake(text, "slap = 6  # oops", "pin 6 is used twice: seats.south.slap and seats.north.slap (line 4)")


def test_an_unknown_seat():
    text = SEATS + '[scanners.a]\nseat = "east"\nport = "/dev/ttyACM0"\n'
    mistake(text, 'seat = "east"', "unknown seat 'east' (seats: north, south)")


@pytest.mark.parametrize("baud", ["9601", '"fast"', "0"])
def test_a_bad_baud_rate(baud):
    text = SEATS + f'[scanners.a]\nport = "/dev/ttyACM0"\nbaud = {baud}\n'
    mistake(text, "baud =", "bad baud rate")


@pytest.mark.parametrize(("edit", "needle", "fragment"), [
    (("slap = 6", "slap = 40"), "slap = 40", "seats.north.slap = 40 is out of range (0..27)"),
    (("slap = 6", 'slap = "six"'), 'slap = "six"', "must be an integer, not a string"),
    (("slap = 6", "slap = true"), "slap = true", "must be an integer, not a boolean"),
    (("slap = 6", "slpa = 6"), "slpa = 6", "unknown key 'slpa' in [seats.north]"),
])
def test_pin_mistakes(edit, needle, fragment):
    text = SEATS.replace(*edit)
    errs = errors(text)
    assert any(e.startswith(f"t.toml:{line_of(text, needle)}: ") and fragment in e for e in errs), errs


def test_a_missing_pin_points_at_the_seat_header():
    text = SEATS.replace("slap = 19\n", "")
    mistake(text, "[seats.south]", "seat 'south' has no slap pin")


def test_not_toml_at_all_gives_the_parser_line():
    text = SEATS + "[scanners.a\nport = 1\n"
    mistake(text, "[scanners.a", "not valid TOML")


@pytest.mark.parametrize(("extra", "needle", "fragment"), [
    ('[scanners.a]\nport = "/dev/ttyACM0"\nterminator = "CRCR"\n', "terminator", "'CRCR' is not one of CR, LF, CRLF"),
    ('[scanners.a]\ntype = "laser"\n', "type =", "'laser' is not one of serial, wedge, sim"),
    ('[scanners.a]\nseat = "north"\n', "[scanners.a]", "has no port"),
    ('[scanners.a]\ntype = "wedge"\n', "[scanners.a]", "has no device"),
    ('[scanners.a]\ntype = "wedge"\ndevice = "/dev/input/x"\nbaud = 9600\n', "baud = 9600", "baud is for serial"),
    ('[scanners.a]\nport = "/dev/x"\ndedupe_ms = -1\n', "dedupe_ms", "out of range"),
    ('[scanners.a]\nport = "/dev/x"\nprefix = "\\u00e9"\n', "prefix", "printable ASCII"),
    ('[buttons]\npull = "sideways"\n', "pull =", "'sideways' is not one of up, down, none"),
    ('[buttons]\npull = "none"\n', "pull =", 'pull = "none" needs active'),
    ('[buttons]\npull = "up"\nactive = "high"\n', "active =", "would read pressed while released"),
    ('[buttons]\ndebounce_ms = 5000\n', "debounce_ms", "out of range"),
    ('[table]\npin_factory = "arduino"\n', "pin_factory", "not one of lgpio, rpigpio, pigpio, native, mock"),
])
def test_each_kind_of_mistake_names_its_line(extra, needle, fragment):
    mistake(SEATS + extra, needle, fragment)


def test_hw_checks_its_own_tables_and_leaves_the_others_to_their_owners():
    """`[kiosk]`, `[cafe]` (or any other table) are not hw's: hw alone neither checks nor refuses them; the kiosk,
    which composes the whole file, does (tests/test_config_check.py)."""
    config = loads(SEATS + '[kiosk]\nlanguage = 5\n[cafe]\nbroker = 1\n[extras]\nx = 1\n', "t.toml")
    assert [s.name for s in config.seats] == ["north", "south"]
    assert not hasattr(config, "kiosk") and not hasattr(config, "cafe")


def test_two_scanners_for_one_seat_and_one_port_twice():
    text = SEATS + ('[scanners.a]\nseat = "north"\nport = "/dev/x"\n'
                    '[scanners.b]\nseat = "north"\nport = "/dev/x"\n')
    errs = errors(text)
    lines = textwrap.dedent(text).splitlines()
    second_seat = [i for i, s in enumerate(lines, 1) if s == 'seat = "north"'][1]
    second_port = [i for i, s in enumerate(lines, 1) if s == 'port = "/dev/x"'][1]
    assert errs == [
        f"t.toml:{second_seat}: seat 'north' already has scanner 'a' (line {second_seat - 3})",
        f"t.toml:{second_port}: port '/dev/x' is used twice: scanners.b and scanners.a (line {second_port - 3})",
    ]


def test_a_key_used_twice_in_the_keyboard_map():
    text = SEATS.replace("slap = 6", 'slap = 6\nkeys = { confirm = "a" }').replace(
        "slap = 19", 'slap = 19\nkeys = { slap = "a" }')
    mistake(text, 'keys = { slap = "a" }', "key 'a' is used twice")


def test_no_seats_is_an_error():
    errs = errors('[table]\nname = "empty"\n')
    assert errs == ["t.toml:1: no [seats.NAME] tables: a table needs at least one seat"]


def test_several_mistakes_are_all_reported_in_line_order():
    text = SEATS.replace("slap = 6", "slap = 99").replace("confirm = 13", "confirm = 5") + '[scanners.a]\nbaud = 1\n'
    errs = errors(text)
    assert [int(e.split(":")[1]) for e in errs] == sorted(int(e.split(":")[1]) for e in errs)
    assert len(errs) == 4  # pin out of range, pin twice, no port, bad baud


def test_check_config_reports_warnings_but_ok(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(SEATS + '[scanners.a]\nseat = "north"\nport = "/dev/x"\n')
    ok, messages = check_config(path)
    assert ok
    assert messages[0] == f"{path}:5: warning: seat 'south' has no scanner and there is no shared scanner"


def test_check_config_on_a_bad_file_and_a_missing_file(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(SEATS.replace("slap = 19", "slap = 6"))
    ok, messages = check_config(path)
    assert not ok
    assert messages == [f"{path}:7: pin 6 is used twice: seats.south.slap and seats.north.slap (line 4)",
                        f"{path}:1: warning: no scanners: cards can only be entered on the touchscreen"]
    ok, messages = check_config(tmp_path / "nope.toml")
    assert not ok and "cannot read" in messages[0]


def test_dotted_keys_and_inline_tables_find_their_lines():
    text = '[seats]\nnorth.confirm = 5\nnorth.slap = 6\nsouth = { confirm = 7, slap = 6 }\n'
    mistake(text, "south = {", "pin 6 is used twice")
