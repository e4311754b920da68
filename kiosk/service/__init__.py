"""Running as a service: log lines with journald's priorities, systemd's READY and WATCHDOG."""
