"""five35.checks.oracles: the rules stated independently of the engine, and the positions to try.

A check compares the engine under test with something that does not share its code. These are
those statements and their inputs: the Z3 model of the rules, compiled from the spec's data, where
every reading's meaning is stated once (z3model.py); `SpecRules`, the plain-Python rules the
invariants judge by, asking the model's reading hooks (rules_model.py); the bounded domains of
situations the conformance and divergence checks sweep (situations.py); the Hypothesis strategies
that generate rulesets, deals and hands (strategies.py); and each component's table of the readings
it implements, held against the engine's vocabulary (vocab.py). Nothing here is a check; the checks
import from here.
"""
