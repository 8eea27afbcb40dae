"""The discovery checks' sections of the words file, built and checked: liveness, decisions,
interactions and the engine's and the rules' mutations (their data classes are
words_model_discovery.py's)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .files import Key
from .model import Spec
from .vocabulary import ENGINE_HOOKS
from .words_model import (
    INTERACTION_BLANKS,
    INTERACTION_SCOPE_BLANKS,
    LIVENESS_FAILED_BLANKS,
    LIVENESS_MATCH_END_BLANKS,
    LIVENESS_PROPERTY_FAILED_BLANKS,
    LIVENESS_SCOPE_BLANKS,
    LIVENESS_TABLE_BLANKS,
    LIVENESS_TABLES_SCOPE_BLANKS,
    MUTATION_BLANKS,
    MUTATION_TEXT_BLANKS,
    NUMBER_BLANKS,
    RULE_MUTATION_BLANKS,
    DecisionWords,
    InteractionWords,
    LivenessFailed,
    LivenessProperty,
    LivenessTables,
    LivenessWords,
    MutationTexts,
    MutationWords,
    RuleMutationWords,
    RuleWords,
    Side,
    Words,
)
from .words_model_questions import _evidence_order
from .words_text import _blank_problems


def _liveness_problems(section: Mapping[str, Any]) -> Iterator[tuple[Key, str]]:
    for name, row in section["properties"].items():
        key: Key = ("liveness", "properties", name, "scope")
        yield from _blank_problems(key, row["scope"], LIVENESS_SCOPE_BLANKS)
        if "plain_scope" in row:
            plain: Key = ("liveness", "properties", name, "plain_scope")
            yield from _blank_problems(plain, row["plain_scope"], LIVENESS_SCOPE_BLANKS)
        for part in ("title", "detail", "table"):
            if "failed" in row:
                yield from _blank_problems(
                    ("liveness", "properties", name, "failed", part),
                    row["failed"][part],
                    LIVENESS_PROPERTY_FAILED_BLANKS,
                )
    for part in ("title", "detail"):
        failed = section["failed"][part]
        yield from _blank_problems(("liveness", "failed", part), failed, LIVENESS_FAILED_BLANKS)
        yield from _blank_problems(
            ("liveness", "match_end", part), section["match_end"][part], LIVENESS_MATCH_END_BLANKS
        )
    tables = section["tables"]
    yield from _blank_problems(("liveness", "tables", "scope"), tables["scope"], LIVENESS_TABLES_SCOPE_BLANKS)
    for part in ("table", "unmerged"):
        yield from _blank_problems(("liveness", "tables", part), tables[part], LIVENESS_TABLE_BLANKS)
    yield from _blank_problems(("liveness", "tables", "cards"), tables["cards"], frozenset({"most"}))
    if "plain_table" in tables:
        yield from _blank_problems(
            ("liveness", "tables", "plain_table"),
            tables["plain_table"],
            frozenset({"players", "cards", "deals", "too_few"}),
        )
    if "too_few" in tables:
        yield from _blank_problems(
            ("liveness", "tables", "too_few"), tables["too_few"], frozenset({"total", "piles"})
        )
    yield from _blank_problems(
        ("liveness", "tables", "changed"), tables["changed"], frozenset({"count", "varied"})
    )
    if "varied" in tables:
        yield from _blank_problems(
            ("liveness", "tables", "varied"), tables["varied"], frozenset({"count", "left"})
        )
    yield from _blank_problems(
        ("liveness", "tables", "stopped"), tables["stopped"], frozenset({"table", "limit"})
    )


def _liveness(section: Mapping[str, Any]) -> LivenessWords:
    return LivenessWords(
        properties={
            name: LivenessProperty(
                row["statement"],
                row["scope"],
                LivenessFailed(**row["failed"]) if "failed" in row else None,
                row.get("plain_scope", ""),
            )
            for name, row in section["properties"].items()
        },
        failed_title=section["failed"]["title"],
        failed_detail=section["failed"]["detail"],
        match_end_title=section["match_end"]["title"],
        match_end_detail=section["match_end"]["detail"],
        tables=LivenessTables(**section["tables"]),
    )


# ---- engine decisions --------------------------------------------------------------------------


def _decisions(section: Mapping[str, Any]) -> dict[str, DecisionWords]:
    def none(value: str) -> str | None:
        return None if value == "none" else value

    return {
        did: DecisionWords(
            id=did,
            title=row["title"],
            ask=dict(row["ask"]),
            engine=Side(row["engine"]["label"], row["engine"]["words"]),
            other=Side(row["other"]["label"], row["other"]["words"]),
            why=row["why"],
            clauses=tuple(row["clauses"]),
            hook=none(row["hook"]),
            variant=none(row["variant"]),
            reason=row.get("reason"),
            evidence=tuple(row.get("evidence", ())),
            under=dict(row.get("under", {})),
            players=tuple(row.get("players", ())),
            severity=row.get("severity"),
            departs_from=tuple(row.get("departs_from", ())),
            grounds=row.get("grounds"),
        )
        for did, row in section.items()
    }


def engine_hooks() -> tuple[str, ...]:
    """The public hooks a variant of the reference engine may override (`Game.HOOKS`)."""
    return ENGINE_HOOKS


def _decision_problems(spec: Spec, words: Words) -> Iterator[tuple[str, str]]:
    hooks = engine_hooks()
    vps = spec.variation_points
    players = spec.parameters["players"].value if "players" in spec.parameters else None
    for did, d in words.decisions.items():
        if did in vps:
            yield (
                words.where("decisions", did),
                f"is the variation point {did!r} of {spec.path.name}: a question the spec already puts "
                "with its readings is not an engine decision",
            )
        for i, clause in enumerate(d.clauses):
            if clause not in spec.clauses:
                yield (
                    words.where("decisions", did, "clauses", i),
                    f"names clause {clause!r}, which {spec.path.name} does not have",
                )
        if d.hook is not None and d.hook not in hooks:
            yield (
                words.where("decisions", did, "hook"),
                f"names hook {d.hook!r}, which is not a public hook of Game (hooks: {', '.join(hooks)}, "
                "or none)",
            )
        if d.variant is not None and d.hook is None:
            yield (
                words.where("decisions", did, "hook"),
                f"is none, but variant {d.variant!r} plays the other choice: name the hook it overrides",
            )
        for point, reading in d.under.items():
            if point not in vps:
                yield (
                    words.where("decisions", did, "under", point),
                    f"names {point!r}, which is not a variation point of {spec.path.name}",
                )
            elif reading not in vps[point].listed:
                yield (
                    words.where("decisions", did, "under", point),
                    f"names reading {reading!r}, which {point} does not have "
                    f"(readings: {', '.join(vps[point].listed)})",
                )
        for key, cited in (("evidence", d.evidence), ("departs_from", d.departs_from)):
            for i, eid in enumerate(cited):
                if eid not in words.evidence:
                    known = ", ".join(sorted(words.evidence, key=_evidence_order))
                    yield (
                        words.where("decisions", did, key, i),
                        f"cites evidence {eid!r}, which {words.path.name} does not have (evidence: {known})",
                    )
        if isinstance(players, Mapping):
            low, high = players.get("min"), players.get("max")
            for i, n in enumerate(d.players):
                if isinstance(low, int) and isinstance(high, int) and not low <= n <= high:
                    yield (
                        words.where("decisions", did, "players", i),
                        f"{n} players is outside the game's {low} to {high}",
                    )


def _interaction_problems(section: Mapping[str, Any] | None) -> Iterator[tuple[Key, str]]:
    for name, text in (section or {}).items():
        if name == "scope":
            yield from _blank_problems(("interactions", name), text, INTERACTION_SCOPE_BLANKS)
        elif name == "apart_scope":
            yield from _blank_problems(("interactions", name), text, frozenset({"players"}))
        elif name == "kind_rule":
            yield from _blank_problems(("interactions", name), text, frozenset({"name", "kind"}))
        elif name == "meets_order" and isinstance(text, Mapping):
            for form, sentence in text.items():
                yield from _blank_problems(("interactions", name, form), sentence, INTERACTION_BLANKS)
        elif name not in ("at_once", "decisions", "groups"):
            yield from _blank_problems(("interactions", name), text, INTERACTION_BLANKS)


def _interactions(section: Mapping[str, Any] | None) -> InteractionWords | None:
    if section is None:
        return None
    return InteractionWords(
        at_once={lang: tuple(words) for lang, words in section["at_once"].items()},
        same=section["same"],
        dead=section["dead"],
        dead_follows=section["dead_follows"],
        elsewhere=section["elsewhere"],
        unevaluated=section["unevaluated"],
        fixed_needs=section["fixed_needs"],
        fixed_at_once=section["fixed_at_once"],
        silence_title=section["silence_title"],
        silence_detail=section["silence_detail"],
        settled_change=section["settled_change"],
        settled_at_once=section["settled_at_once"],
        settled_needs=section["settled_needs"],
        scope=section["scope"],
        decisions=dict(section["decisions"]),
        apart_scope=section.get("apart_scope", ""),
        kind_rule=section.get("kind_rule", ""),
        groups=dict(section.get("groups", {})),
        where_same=section.get("where_same", ""),
        where_dead=section.get("where_dead", ""),
        same_elsewhere=section.get("same_elsewhere", ""),
        meets_order=dict(section.get("meets_order", {})),
    )


# ---- engine mutants ----------------------------------------------------------------------------


def _mutations(section: Mapping[str, Any]) -> dict[str, MutationWords]:
    return {
        hook: MutationWords(
            hook=hook,
            title=row["title"],
            clauses=tuple(row["clauses"]),
            operators=dict(row["operators"]),
            wording=dict(row["wording"]),
        )
        for hook, row in section.items()
        if hook != "texts"
    }


def _rule_mutations(section: Mapping[str, Any] | None) -> RuleMutationWords | None:
    if section is None:
        return None
    texts = section["texts"]
    return RuleMutationWords(
        printed=texts["printed"],
        mutant=texts["mutant"],
        detail=texts["detail"],
        operators=dict(texts["operators"]),
        rules={
            rid: RuleWords(title=row["title"], wording=dict(row["wording"]), name=row.get("name"))
            for rid, row in section.get("rules", {}).items()
        },
    )


def _rule_mutation_problems(section: Mapping[str, Any] | None) -> Iterator[tuple[Key, str]]:
    if section is None:
        return
    yield from _blank_problems(
        ("rule_mutations", "texts", "detail"), section["texts"]["detail"], RULE_MUTATION_BLANKS
    )
    for rid, row in section.get("rules", {}).items():
        for lang, text in row["wording"].items():
            yield from _blank_problems(("rule_mutations", "rules", rid, "wording", lang), text, NUMBER_BLANKS)


def _mutation_texts(section: Mapping[str, Any]) -> MutationTexts | None:
    row = section.get("texts")
    if row is None:
        return None
    return MutationTexts(
        engine=row["engine"],
        mutant=row["mutant"],
        detail=row["detail"],
        invariant=row["invariant"],
        method=row["method"],
        found=dict(row["found"]),
        invariants=dict(row["invariants"]),
    )


def _mutation_problems(section: Mapping[str, Any]) -> Iterator[tuple[Key, str]]:
    hooks = engine_hooks()
    for hook, row in section.items():
        if hook == "texts":
            for part in ("engine", "mutant", "detail", "invariant", "method"):
                yield from _blank_problems(("mutations", hook, part), row[part], MUTATION_TEXT_BLANKS)
            continue
        if hook not in hooks:
            yield (
                ("mutations", hook),
                f"{hook!r} is not a public hook of the engine (hooks: {', '.join(hooks)})",
            )
        for operator, text in row["operators"].items():
            yield from _blank_problems(("mutations", hook, "operators", operator), text, MUTATION_BLANKS)


def _mutation_spec_problems(spec: Spec, words: Words) -> Iterator[tuple[str, str]]:
    for hook, family in words.mutations.items():
        for i, clause in enumerate(family.clauses):
            if clause not in spec.clauses:
                yield (
                    words.where("mutations", hook, "clauses", i),
                    f"names clause {clause!r}, which {spec.path.name} does not have",
                )
