"""Shared fixtures. Hardware tests use mock backends only; nothing here sleeps."""
