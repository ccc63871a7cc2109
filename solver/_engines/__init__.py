"""The engines behind one interface (:class:`~.._core.engine.PassEngine`): the product engine
(:mod:`.product`), CP-SAT (:mod:`.cpsat`) and python-constraint2 (:mod:`.constraint`, the
independent cross-check), and the one place that picks among them (:mod:`.select`)."""
