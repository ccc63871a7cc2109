"""The product engine: counting, ranking and lazy enumeration by product over the independent
parts of a pass (:mod:`.engine`), its plan (:mod:`.plan`) and ``--merge-identical`` (:mod:`.merge`)."""

from .engine import ProductEngine
from .merge import MergedEngine
from .plan import Plan, plan

__all__ = ["MergedEngine", "Plan", "ProductEngine", "plan"]
