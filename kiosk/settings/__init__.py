"""What the kiosk is told: the table's config file, the kiosk's settings, staff's saved preferences, the admin PIN."""
