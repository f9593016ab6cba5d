"""The README's rule table is the catalog's, and the README shows the two
commands CI runs."""

from pathlib import Path

from conformance.readme_table import BEGIN, END, rule_table

README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")


def test_readme_rule_table_is_current() -> None:
    start, end = README.index(BEGIN), README.index(END) + len(END)
    assert README[start:end] == rule_table(), "run: python -m conformance.readme_table"
