"""Drawing: what a screen shows as data (`view`), drawing it within the readability limits (`render`), and
the readability audit of every screen (`audit`)."""
