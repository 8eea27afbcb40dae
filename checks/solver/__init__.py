"""five35.checks.solver: what Z3 proves or finds about the rules themselves, over every reading.

proofs.py proves properties of the rules within the bounds for every combination of readings (the
check "proofs": the leader always has a legal play, comparing piles of one size is an order, an
overwrite never closes a pile, ...), and lists every combination a property fails under, each with
a counterexample. divergence.py searches, for every
variation point, the smallest situation its readings play differently (the check "divergence"),
which is the witness a rule designer is shown for the question. Both ask the Z3 model
(five35.checks.oracles.z3model).
"""
