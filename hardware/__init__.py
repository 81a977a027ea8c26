"""Drivers that turn physical signals into plain events and draw frames.

Every device has a real backend and a mock one behind a small typed interface; hardware
libraries are imported lazily so this package imports on any desktop.
"""
