"""Measurement harnesses of the phase.rs adapter, used by the tests and by benchmarks/phase_rs.py
(issue 55: they are not the product, so they live beside the tests, as the literal simulator does):
the differential run over seeded boards of real cards (:mod:`.differential`), our outcomes played
back into phase (:mod:`.playback`), and the adapter in an engine's per-prompt path (:mod:`.per_prompt`).
"""
