"""Hypothesis budgets of the project's own tests."""

from __future__ import annotations

from hypothesis import Phase, settings

from conformance.checking import profile

#: The `ci` profile without shrinking, for tests that assert a verdict's
#: status and rule but not its counterexample's size: the same derandomized
#: examples find the same failure, and shrinking it, most of a failing run's
#: time, would change nothing they check. (`trim` still runs.)
VERDICT_ONLY = settings(profile("ci"), phases=[Phase.explicit, Phase.reuse, Phase.generate])
