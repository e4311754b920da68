"""Audit fixtures, not screens: the scenes `referee-kiosk audit` draws and checks. Each module here puts a headless
app onto screens in given states and registers them with `@kiosk.drawing.audit.scene`; guests never see these.

Add a module for new screens (one module per owner, so nobody edits another's file).
"""
