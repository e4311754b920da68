"""The table's side of the café: the MQTT contract (`cafe.contract`), the publisher thread, the broker's config.

Tables and the café hub talk only through an MQTT broker, as `shared/cafe-protocol.md`
binds them; `cafe.contract` is that file in code, shared by the table and the hub.
"""
