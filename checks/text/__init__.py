"""five35.checks.text: checks of what the rule texts say, clause by clause.

text_examples.py holds the texts' own examples (German and Spanish, examples.py) against every
reading and the spec's parameters with Z3, and names the clauses that contradict with an unsat core
(the check "text_examples"); tracked.py is the labelled solver both Z3 checks here ask.
dead_clauses.py finds the parts of rules that can never apply under a reading, again with the
reason as an unsat core ("dead_clauses"). text_audit.py reads the two texts side by
side and reports where they disagree, stay silent or are damaged, each finding with the
alternatives it puts ("text_audit").
"""
