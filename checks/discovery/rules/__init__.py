"""Mutants of the rules themselves (the check `discovery.rules`)."""

#: A silence's question, by its rule: the topic of every silence of one rule (kept here, apart from
#: the check's solver-heavy modules, for the review that gathers the questions).
TOPIC_PREFIX = "rule."
