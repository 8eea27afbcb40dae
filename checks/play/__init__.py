"""five35.checks.play: checks that play the engine under test and judge every step.

The invariants of one state and one move (invariants.py) are checked at every step of whole
matches that a Hypothesis state machine plays under generated rulesets (matches.py, the check
"invariants.matches") and on every move of small endgames explored exhaustively as networkx graphs
(graphs.py, with the rank-succession and beats graphs: "graphs.*"). conformance.py sweeps a bounded
domain of situations and compares each decision of the engine with the Z3 model's answer (the check
"conformance"). All of them judge by five35.checks.oracles.
"""
