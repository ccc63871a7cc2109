"""The public verbs, one module each: ``check``, ``count``, ``enumerate`` (``outcomes``),
``sample``, ``best``, ``explain``, ``step`` and ``batch`` (``check --batch``). Each takes the
scenario, an :class:`~..options.Options` (or its fields as keywords), and asks
``engines.select`` which engine answers."""
