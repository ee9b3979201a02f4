"""A referee for thief card games played by bots over gRPC."""

__version__ = "0.1.0"
