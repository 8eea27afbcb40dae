"""Rule interactions: the pairs and triples of the spec's rules that meet on one play, and whether
the texts fix what happens then (issue 13, item 3).

The candidates come from the rules' own data, never from a list written here: every rule says at
which moments it applies (`when`) and what it decides (`decides`), in the engine's vocabulary
(five35.engine.state: MOMENTS, DECISIONS, what a decision opens, OPENS, and what it is computed
from, NEEDS). Two rules that apply at one moment are a candidate when

- they decide the same thing (both say whether the trick ends, and who wins it), or
- one decides what the other's decision is computed from (the scores a match end reads), or
- what they decide meets once the moments they open are followed: a rule that ends the trick
  opens the trick's end, where the winner leads the next trick (a third rule), while going out
  ends the round at once and decides who plays next too. Such a candidate is a triple.

Each candidate is then played: every reachable play of small deals (the endgames of
checks/play/graphs.py and a few more, explored exhaustively with the engine under check) is looked
at, and a candidate occurs at a play where all its rules apply. Beside them, plays are built where
rules meet that no small deal may reach (`construct`): every lead, and every play onto every
central pile one or two plays leave (with or without an 8 in the trick's opening pile), the mover
going out with it or not, each reached by legal play from a deal made for it. Rules that meet in
none of them cannot meet in one play (`dead`, proved over that scope); the built plays are then
tried under each other reading of the spec's points, and the first that lets them meet is named.

Where a candidate occurs, its outcome is computed under every order of its rules, by a small
rules-level evaluation (`_value`: one function per decision, asking the engine's public hooks).
A rule applied later replaces what an earlier one decided; a rule whose clause says it acts at
once (the words file's `interactions.at_once`: "sofort", "inmediatamente") ends its trick or round
before the rules after it at that moment, so those do not apply. Then:

- all orders give the same outcome at every such play: the order does not matter, a
  `ProvedProperty` (exhaustive over the deals explored);
- they differ, and a clause settles the order (a decision computed from another comes after it,
  NEEDS, cited by the rule whose decision it is; or exactly one of the rules acts at once, cited
  by its clause): fixed by that clause, a note;
- they differ and nothing settles it: a silence of the texts, a `Finding` with both outcomes;
- the rules apply to no play explored or built: they cannot meet (over that scope), a proved
  property that names the other reading under which they can, if one does.

Every order is evaluated at every play, so the verdicts are exact over the scope; the scope is
named in every statement.
"""

from .candidates import Candidate, candidates
from .check import CHECK, check_interactions
from .search import search
from .verdicts import Search, Verdict

__all__ = ["CHECK", "Candidate", "Search", "Verdict", "candidates", "check_interactions", "search"]
