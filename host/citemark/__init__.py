"""citemark: check that the sources an AI answer cites really say what it claims."""

__version__ = "0.1.0"
