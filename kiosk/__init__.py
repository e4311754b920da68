"""The kiosk: the table's touchscreen app, `referee-kiosk` (`__main__.py`), one package per job.

`app/` the app and its rooms (composition root, screen routing, control commands, staff actions, the table
controller, café link, sound); `loop/` the display loop (screen, sleep, inputs, guard, inbox); `screens/`
what guests and staff see; `games/` each game's table panel and the kiosk's game content (ranking, help,
event words, history); `eventlog/` the event log, its faults and exports; `hardware/` the table's hardware
as the kiosk uses it; `settings/` config file, settings, staff's preferences, admin PIN; `drawing/` view
model, renderer and readability audit (`audit_fixtures/` its scenes); `service/` journald and systemd
notify; `i18n.py` the language the kiosk speaks.
"""
