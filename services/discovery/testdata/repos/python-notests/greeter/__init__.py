"""Greets people from the command line."""
