"""The editions of the phasing rules (issue 13): every rule of the older
texts is in its edition's catalog, each is certified or says why not, the
reference engine plays each edition, and the editions really differ where
their texts do: each edition's reference passes its own edition and fails
the others on exactly the properties of the rules that changed."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from adapters.mutants import MUTANTS
from adapters.protocol import engine_editions, engine_for_edition
from adapters.reference import ReferenceEngine, reference_of
from adapters.reference.editions import EDITION_RULES
from conformance.agreement_results import COMPARISON
from conformance.catalog import CATALOG, Edition
from conformance.checking import run_property
from conformance.editions import CATALOGS, EDITIONS, rules_in
from conformance.properties import REGISTRY, in_edition
from tests.budgets import VERDICT_ONLY

#: The source documents sit beside the checkout (../shared/seeds), not in an
#: installed copy; the nearest such folder above this file.
SEEDS = next(
    (p / "shared" / "seeds" for p in Path(__file__).parents if (p / "shared" / "seeds").is_dir()),
    Path(__file__).parents[2] / "shared" / "seeds",
)
#: The seed text of each older edition and the rules it numbers (a heading
#: such as "502.15." is the section's title; cross-references such as
#: "règle 704.5d" name rules of other sections).
SEED_TEXTS: dict[Edition, tuple[str, re.Pattern[str]]] = {
    "pre-2017": ("000_a053807a61f6029b.txt", re.compile(r"\b702\.25[a-z]\b")),
    "mirage": ("001_58e51963fca0a110.txt", re.compile(r"\b(?:502\.15|217\.8)[a-z]\b")),
}

#: Properties each edition's reference fails when certified under another
#: edition: those of the rules that changed, and nothing else.
#: (engine's edition, edition certified) → failing properties.
DIFFERENCES: dict[tuple[Edition, Edition], set[str]] = {
    # 702.25k / 217.8d: a phased-out token ceases to exist; today it stays.
    ("current", "pre-2017"): {"phased_out_tokens_cease_to_exist"},
    ("pre-2017", "current"): {"phased_out_tokens_stay_and_phase_in"},
    # 502.15m against 302.6: a creature that came under its controller's
    # control this turn is summoning sick, phased out and in or not; 502.15e
    # against 514.2: damage stays marked on a phased-out permanent until
    # cleanup (120.6); 502.15g against 702.26f: limited-duration effects go
    # on through phasing (a boost "until your next turn" too, on what phases
    # in at its controller's untap step before that turn); 502.15k against
    # 704.5j: of two legends with one name phasing in together, none stays.
    ("mirage", "current"): {
        "legend_rule_applies_once_a_legend_phases_in",
        "phased_out_tokens_stay_and_phase_in",
        "phasing_in_does_not_cure_summoning_sickness",
        "damage_stays_marked_while_phased_out",
        "limited_effects_outlast_phasing",
        "effects_that_ended_while_out_stay_ended",
    },
    # 502.15m: what phases in attacks as if it had haste; 502.15e: damage
    # goes as a permanent phases out (today and before 2017 it stays until
    # cleanup, 514.2: "including phased-out permanents"); 502.15k: legends
    # of one name phasing in together all go (today one stays, 704.5j);
    # 502.15g: effects with a limited duration stop affecting a permanent as
    # it phases out (today and before 2017 they go on, 702.26f / 702.25e).
    # Mirage only.
    ("current", "mirage"): {
        "tokens_in_the_phased_out_zone_cease_to_exist",
        "phased_in_permanents_attack_as_if_hasty",
        "phasing_out_removes_damage",
        "legends_phasing_in_together_all_go",
        "limited_effects_end_as_it_phases_out",
    },
    ("pre-2017", "mirage"): {
        "phased_in_permanents_attack_as_if_hasty",
        "phasing_out_removes_damage",
        "legends_phasing_in_together_all_go",
        "limited_effects_end_as_it_phases_out",
    },
    # Mirage's haste is more than pre-2017 allows (302.6, unchanged since),
    # and so is its healing (514.2, unchanged since); its 502.15g ends what
    # 702.25e keeps; its 502.15k leaves none of two legends phasing in
    # together (704.5j, unchanged since).
    ("mirage", "pre-2017"): {
        "legend_rule_applies_once_a_legend_phases_in",
        "phasing_in_does_not_cure_summoning_sickness",
        "damage_stays_marked_while_phased_out",
        "limited_effects_outlast_phasing",
        "effects_that_ended_while_out_stay_ended",
    },
}

#: (engine's edition, edition certified): the properties the engine never
#: gets to exercise there. 502.15e: the Mirage rules remove damage as a
#: permanent phases out, so no creature phases in with damage marked, which
#: 702.26c's state-based property needs (514.2's own property fails them).
NOT_EXERCISED: dict[tuple[Edition, Edition], set[str]] = {
    ("mirage", "current"): {"phased_in_creatures_meet_state_based_actions"},
    ("mirage", "pre-2017"): {"phased_in_creatures_meet_state_based_actions"},
}


@pytest.mark.parametrize("edition", list(SEED_TEXTS))
def test_every_numbered_rule_of_the_seed_text_is_in_its_catalog(edition: Edition) -> None:
    name, numbered = SEED_TEXTS[edition]
    path = SEEDS / name
    if not path.exists():
        pytest.skip("the seed texts sit beside a checkout, not an installed copy")
    found = set(numbered.findall(path.read_text(encoding="utf-8")))
    assert len(found) >= 13, sorted(found)
    own = {r for r in CATALOGS[edition] if numbered.fullmatch(r)}
    assert found == own, (sorted(found - own), sorted(own - found))


@pytest.mark.parametrize("edition", [e for e in EDITIONS if e != "current"])
def test_every_rule_of_an_older_edition_is_certified_or_says_why(edition: Edition) -> None:
    held = in_edition(edition)
    for rule in CATALOGS[edition].values():
        assert rule.edition == edition
        assert set(rule.carries) <= set(CATALOG), rule
        covering = [p for p in held.values() if rule.id in p.rules]
        if rule.uncertified:
            assert not covering, f"{rule.id} is certified by {covering[0].name}: drop its reason"
        else:
            assert covering, f"{rule.id}: no property certifies it, and no reason says why"


def test_a_property_holds_where_every_rule_it_cites_does() -> None:
    assert rules_in(("702.26a",), "pre-2017") == ("702.25a",)
    assert rules_in(("702.26a", "502.1"), "mirage") == ("502.15a", "502.15b")
    assert rules_in(("704.5d", "R2017-tokens"), "pre-2017") == ()
    assert rules_in(("702.25k", "702.25f"), "pre-2017") == ("702.25k", "702.25f")
    assert rules_in(("702.25k", "702.26g"), "pre-2017") == ("702.25k", "702.25f")
    assert rules_in(("702.25k", "702.25f"), "current") == ()
    assert rules_in(("702.25k", "702.25f"), "mirage") == ()
    # 502.15n carries 702.26c and 702.26d jointly: only with both.
    assert "502.15n" not in rules_in(("702.26d",), "mirage")
    assert "502.15n" not in rules_in(("702.26c",), "mirage")
    assert "502.15n" in rules_in(("702.26c", "702.26d"), "mirage")
    today = {n for n, p in REGISTRY.items() if set(p.rules) <= set(CATALOG)}
    assert set(in_edition("current")) == today


def test_the_reference_engine_declares_every_edition_and_plays_each() -> None:
    engine = ReferenceEngine()
    assert engine_editions(engine) == frozenset(EDITIONS)
    for edition in EDITIONS:
        assert engine_for_edition(engine, edition).rules is EDITION_RULES[edition]


def test_an_engine_plays_only_the_editions_it_declares() -> None:
    class Today:
        name = "today"

    assert engine_editions(Today()) == {"current"}
    with pytest.raises(ValueError, match="does not play the mirage edition"):
        engine_for_edition(Today(), "mirage")


def test_each_edition_rule_branch_cites_its_rule() -> None:
    """Where an older edition differs, its branch cites a rule of its own
    text (today's branches: tests/test_catalog.py)."""
    for edition, rules in EDITION_RULES.items():
        if edition == "current":
            continue
        for name, method in vars(rules).items():
            if inspect.isfunction(method) and not name.startswith("_"):
                doc = inspect.getdoc(method) or ""
                ids = set(re.findall(r"\b\d{3}\.\d+[a-z]?\b", doc))
                assert ids & set(CATALOGS[edition]), f"{rules.__name__}.{name}: {doc!r}"


def test_every_rule_where_an_edition_differs_has_a_mutant() -> None:
    broken = {(m.edition, m.breaks) for m in MUTANTS.values()}
    for edition in EDITIONS:
        for rule in CATALOGS[edition].values():
            if not rule.carries and not rule.uncertified:
                assert (edition, rule.id) in broken, f"no mutant breaks {edition} {rule.id}"


#: (engine's edition, edition certified, property): every property of every
#: edition on every edition's reference; today's on today's is
#: tests/test_suite.py's. A pass of one edition's reference under another
#: edition's catalog is in the thorough tier (tests/conftest.py): the
#: default run holds each reference to its own edition and to every
#: difference.
_RUNS = [
    pytest.param(
        engine,
        certified,
        name,
        id=f"{engine}-{certified}-{name}",
        marks=()
        if engine == certified or name in DIFFERENCES.get((engine, certified), set())
        else pytest.mark.thorough,
    )
    for engine in EDITIONS
    for certified in EDITIONS
    if (engine, certified) != ("current", "current")
    for name in in_edition(certified)
]


@pytest.mark.parametrize(("engine", "certified", "prop"), _RUNS)
def test_an_editions_reference_fails_another_edition_only_where_it_differs(
    engine: Edition, certified: Edition, prop: str
) -> None:
    """Certified under its own edition, each reference passes every
    property (today's: tests/test_suite.py); under another, it fails exactly
    the properties of `DIFFERENCES`, and can't exercise those of
    `NOT_EXERCISED`."""
    result = run_property(
        in_edition(certified)[prop],
        reference_of(engine),
        using=VERDICT_ONLY,
        reference=reference_of(certified),
    )
    if prop in DIFFERENCES.get((engine, certified), set()):
        assert result.status == "fail", result.message
        assert set(result.rules) <= set(CATALOGS[certified])
    elif prop in NOT_EXERCISED.get((engine, certified), set()):
        assert result.status == "not-exercised", result.message
    else:
        assert result.status == "pass", result.message


def test_the_differences_are_those_of_the_texts() -> None:
    """Each listed failure is a property of a rule one edition has and the
    other lacks, never one of a rule both share."""
    for (engine, certified), names in DIFFERENCES.items():
        for name in names:
            assert name in in_edition(certified), (engine, certified, name)
            assert name not in in_edition(engine), (engine, certified, name)
    assert COMPARISON not in REGISTRY
