"""The table's hardware as the kiosk opens and uses it: readers and seats (real or simulated), the seat
lights, the camera's seat and webcam, the --sim window's strip and the camera's still-picture command."""
