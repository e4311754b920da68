"""The overhead camera card reader: cards read from above as they land, by zone (issue #28).

- `zones`: the `[camera]` config section (frame source, zones, confirmation) and its validation;
- `decode`: zxing-cpp over one zone's crop → card codes with their centres;
- `presence`: when a code seen in a zone counts as a card laid (seen in N consecutive frames after it
  was not there), so a hand over the pile or straightening it never counts a card twice;
- `sources`: frame sources behind one port (picamera2 on a Pi, the simulated camera; a V4L2 webcam's is the
  kiosk's, `kiosk.hardware.webcam`, as hw does not import pygame);
- `reader`: `CameraReader`, a sibling of the serial and wedge readers: capture and decoding threads,
  frames dropped (never queued) when decoding falls behind, `CardScan` / `ReaderNews` to the sink;
- `sim`: the simulated camera that renders frames of the table from the project's own label images;
- `save`: the calibrated zones written back into the table config.

zxing-cpp and Pillow come with the `camera` extra; nothing is imported before a reader opens.
"""
