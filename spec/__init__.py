"""five35.spec: the rules of 535 as data, and the loader that turns a spec file into a Ruleset."""

from .loader import embedded_spec_path, load_spec
from .model import (
    Clause,
    Parameter,
    Profile,
    ReadingChoice,
    Rule,
    Ruleset,
    Source,
    Spec,
    SpecError,
    VariationPoint,
    dumps,
)

__all__ = [
    "Clause",
    "Parameter",
    "Profile",
    "ReadingChoice",
    "Rule",
    "Ruleset",
    "Source",
    "Spec",
    "SpecError",
    "VariationPoint",
    "dumps",
    "embedded_spec_path",
    "load_spec",
]
