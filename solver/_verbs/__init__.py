"""The public verbs, one module each, named as the verb — ``check``, ``count``, ``enumerate``,
``sample``, ``best``, ``explain``, ``draw``, ``card`` and the ``step`` package for the ``step.*``
verbs — each holding its params, its one result type and the function answering it, listed in
``table`` (the one table of verbs). Each answers from a :class:`~.legal.LegalOutcomes`, which
takes the scenario and an :class:`~.._options.Options` (or its fields as keywords) and asks
``engines.select`` which engine answers; ``batch`` is ``check --batch``."""
