"""The kiosk app and its rooms: composed once (`compose`), the screens it routes between, what staff and the
control socket ask of it, the table controller, the café link and the sound."""
