"""Liveness and well-definedness: every trick, round and match ends, and a player to move always has
a legal move, for every reading combination and every parameter table a spec may give.

Each property says how it is known (`ProvedProperty.method`):

- "z3": the domain is symbolic. The readings of every point the rules model decides plays with are
  Z3 variables (one query ranges over every combination), and the parameters are variables within
  the spec schema's bounds (max_cards_per_turn 1-6, copies 1-7, set and run sizes up to 100, points
  0-1,000,000, players 2-12); only the rank list is the spec's own. A property is asked as its
  negation: unsat is the proof, a model the counterexample.
- "exhaustive": a small domain is searched whole: every player count and reading of a size
  question, every state reachable by legal play from small deals, every turn order up to 12 seats.
  The scope says the bounds.

The termination argument (spec/ruleset.py, match_round_bound) rests on these facts: a trick ends
because cards in hands plus players still in the trick fall with every move (a placing move places
a card, a pass takes the passer out, the leader never passes); a round ends because each trick places
at least one card; a match ends because every player but the one who went out holds a card and
scores at least p_min points. Where p_min is 0 the last fails: the smallest endless match (a round
from a Position, played by legal moves, that leaves every score as it was) is searched with the
engine and reported as a liveness finding with that witness.

A property that fails for some reading combination or table is a liveness finding with its smallest
counterexample. The words (statements, scopes, titles) are the words file's `liveness` section.
"""

from .check import MATCH_END_TOPIC, check_liveness
from .outcome import NAME

__all__ = ["MATCH_END_TOPIC", "NAME", "check_liveness"]
