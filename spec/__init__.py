"""five35.spec: the rules of 535 as data, and the loader that turns a spec file into a Ruleset."""

from .files import SpecError, embedded_spec_path
from .loader import embedded_game, embedded_spec, load_spec, other_game
from .model import (
    SETTLING_BASES,
    Clause,
    Parameter,
    Profile,
    ReadingChoice,
    Rule,
    Source,
    Spec,
    VariationPoint,
    dumps,
)
from .ruleset import MATCH_ROUND_LIMIT, Ruleset, match_round_bound

__all__ = [
    "MATCH_ROUND_LIMIT",
    "SETTLING_BASES",
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
    "embedded_game",
    "embedded_spec",
    "embedded_spec_path",
    "load_spec",
    "match_round_bound",
    "other_game",
]
