"""The public verbs, one module each — ``check``, ``count``, ``enumerate``, ``sample``, ``best``,
``explanation`` (explain), ``steps`` (the ``step.*`` verbs), ``picture`` (draw) and ``card`` — each
holding its params, its result and the function answering it, listed in ``table`` (the one table of
verbs). Each answers from a :class:`~.legal.LegalOutcomes`, which takes the scenario and an
:class:`~.._options.Options` (or its fields as keywords) and asks ``engines.select`` which engine
answers; ``batch`` is ``check --batch``."""
