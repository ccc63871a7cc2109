"""The product engine: counting, ranking and lazy enumeration by product over the independent
parts of a pass (:mod:`.engine`), its plan (:mod:`.plan`) and ``--merge-identical`` (:mod:`.merge`)."""

from .engine import ProductEngine as ProductEngine
from .merge import MergedEngine as MergedEngine
from .plan import Plan as Plan
from .plan import plan as plan
