"""five35: rules verification and property testing for the card game 535 (Five Three Five).

The repository's root is the package: its folders are five35's sub-packages, and their imports run
one way, from the executor and the spec's data up to the command line (tests/test_architecture.py
holds them to it):

- executor: runs long work, a pure function over units, in worker processes or on a Dask cluster;
- spec:     the rules as data, and the loader that turns a spec file into a Ruleset;
- engine:   the reference engine and the spec interpreter, which play a Ruleset;
- protocol: the engine protocol, beside the engine: serve it, drive another engine through it;
- checks:   checks of the spec against the engines, which produce typed Findings;
- reports:  what renders Findings: the reports, the rulebooks, check's output formats;
- cli:      `535-check`, a thin shell over the library.
"""
