"""Qt item models over service-layer data."""
