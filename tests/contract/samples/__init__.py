"""Documented response bodies, one module per service; every sample names its source."""
