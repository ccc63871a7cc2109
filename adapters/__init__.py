"""Adapters between real games and the verbs: each reads an engine's or a data source's state as our
scenario and maps our answers back (docs/phase.md)."""
