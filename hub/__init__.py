"""The café hub: stores every table's log from the café's MQTT broker, verifies finished games through the
referee, rates players, and shows it all on a live web page (`referee-hub`)."""
