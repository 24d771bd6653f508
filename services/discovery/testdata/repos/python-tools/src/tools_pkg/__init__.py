"""Tools."""
