"""A profile's budgets as a dict: every budget by name, in the order of the fields."""

import dataclasses

import pytest

from assetcheck.scoring.profiles import BUILTIN_PROFILES, Budgets


@pytest.mark.parametrize("name", sorted(BUILTIN_PROFILES))
def test_budgets_as_a_dict_are_every_field_in_order(name):
    budgets = BUILTIN_PROFILES[name].budgets
    as_dict = budgets.to_dict()
    assert list(as_dict.items()) == list(dataclasses.asdict(budgets).items())
    assert list(as_dict) == [field.name for field in dataclasses.fields(Budgets)]


def test_budgets_as_a_dict_follow_overrides():
    budgets = BUILTIN_PROFILES["generic"].budgets.updated({"bones": 7, "index_32bit": False})
    assert (budgets.to_dict()["bones"], budgets.to_dict()["index_32bit"]) == (7, False)
