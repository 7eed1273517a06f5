"""Pontoon in Discord: the table message, its buttons and forms."""
