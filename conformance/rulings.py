"""Where each ruling of the 2017-08-25 document (Teferi's Protection's,
../shared/seeds/003_6ffaf3741405dd10.txt) sits in the catalog: a phrase
only that ruling's text contains, by rule ID. tests/test_seed_rulings.py
reads the seed and checks that every ruling maps to exactly one ID."""

from __future__ import annotations

SEED = "003_6ffaf3741405dd10.txt"

RULING_PHRASES: dict[str, str] = {
    "R2017-targets": "A permanent phasing out causes a spell or ability",
    "R2017-replaced-by-life": "like Words of Worship's effect does",
    "R2017-until-leaves": "such as that of Banishing Light",
    "R2017-tokens": "If a token is phased out",
    "R2017-nonexistent": "While a permanent is phased out, it's treated as though",
    "R2017-life-no-effect": "the life-gain or life-loss part simply has no effect",
    "R2017-haste": "will be able to attack and pay a cost of {T}",
    "R2017-control": "If you gain control of another player's permanent and it phases out",
    "R2017-nothing-else": "Nothing other than the specified events are prevented",
    "R2017-auras": "attached to a permanent that isn't phasing out",
    "R2017-pay-life": "any amount of life other than 0 life",
    "R2017-for-as-long-as": "such as that of Mathas, Fiend Seeker",
    "R2017-attached": "attached to a permanent that's phasing out phases in with",
    "R2017-counters": "Permanents that phase out with counters",
    "R2017-life-replacement": "replace having you gain life with some other event",
    "R2017-set-life": "set your life total to a certain number",
    "R2017-gain-life-cost": "like the alternative cost of an opponent's Invigorate",
    "R2017-unpreventable": "but some damage can't be prevented",
    "R2017-no-etb-ltb": 'Phasing out doesn\'t cause any "leaves the battlefield" abilities',
    "R2017-skip-untap": "If your untap step is somehow skipped",
    "R2017-protection-targets": "Gaining protection from everything causes a spell",
    "R2017-choices": "Choices made for permanents as they entered",
    "R2017-protection": "it means three things",
    "R2017-exchange": "exchange life totals with another player",
}
