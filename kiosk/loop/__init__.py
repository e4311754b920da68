"""The display loop: the screen opened, the sleep until something is due, the inputs handed on, the guard
around it, and the inbox other threads post to."""
