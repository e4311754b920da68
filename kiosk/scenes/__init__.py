"""Scenes for `referee-kiosk audit`: each module here registers screens in given states with `@kiosk.audit.scene`.

Add a module for new screens (one module per owner, so nobody edits another's file).
"""
