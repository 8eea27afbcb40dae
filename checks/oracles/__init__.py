"""five35.checks.oracles: the rules stated independently of the engine, and the positions to try.

A check compares the engine under test with something that does not share its code. These are those
statements and their inputs: the Z3 model of the rules, compiled from the spec's rules and every
reading's rule fragment (z3model.py, built on algebra.py, model_terms.py, piles.py and plays.py, by
the compiler in rulecompile.py), so that a reading means what its fragment in the spec file says;
`SpecRules`, the rules the invariants judge by, as that model evaluated in Python states them
(rules_model.py); the bounded domains of situations the conformance and divergence checks sweep
(situations.py); the Hypothesis strategies that generate rulesets, deals and hands (strategies.py);
and each component's table of the readings it implements (vocab.py: held against the engine's
vocabulary, or, for the components compiled from the rules, the readings whose fragment the spec
states). Nothing here is a check; the checks import from here.
"""
