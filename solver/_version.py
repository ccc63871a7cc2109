"""The package's version, read once from its metadata (pyproject.toml is the one place it is written)."""

from importlib.metadata import PackageNotFoundError, version

try:
    VERSION = version("triggerstack")
except PackageNotFoundError:  # run from a checkout that was never installed
    VERSION = "0+unknown"
