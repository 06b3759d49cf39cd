"""The version of gcgtools, in a module of its own so that any layer can name it without
importing the package's public face."""

__version__ = "0.1.0"
