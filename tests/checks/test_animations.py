"""Animations of an absurd length or with far more keyframes than their motion needs."""

from __future__ import annotations

import pytest

from assetcheck.checks.animations import describe_duration
from assetcheck.testing.fbx import Scene, binary_fbx, cube
from assetcheck.testing.gltf import GltfBuilder
from tests.formats import codes, only_issue, validate_bytes

ANIMATION_CODES = {"ANIMATION_TOO_LONG", "ANIMATION_TOO_MANY_KEYFRAMES"}


def animated_glb(**animation) -> bytes:
    builder = GltfBuilder()
    builder.add_animation("walk", **animation)
    return builder.glb()


def test_animation_longer_than_ten_minutes_is_reported_with_its_pointer(tmp_path):
    result = validate_bytes(tmp_path, "a.glb", animated_glb(duration=1623.0))
    issue = only_issue(result, "ANIMATION_TOO_LONG")
    assert issue.message.startswith("Animation walk lasts 27 min 3 s, more than 10 min:")
    assert issue.pointer == "/animations/0"


def test_animation_of_a_few_seconds_is_fine(tmp_path):
    result = validate_bytes(tmp_path, "a.glb", animated_glb(keyframes=121, duration=4.0))
    assert ANIMATION_CODES.isdisjoint(codes(result))


def test_keyframes_are_summed_over_the_channels(tmp_path):
    # Ten channels share 100,001 times: 1,000,010 keyframes, just over the limit.
    result = validate_bytes(
        tmp_path, "a.glb", animated_glb(keyframes=100_001, duration=60.0, channels=10)
    )
    issue = only_issue(result, "ANIMATION_TOO_MANY_KEYFRAMES")
    assert issue.message.startswith(
        "Animation walk stores 1,000,010 keyframes (1.6 MB) in 10 channels, more than 1,000,000"
    )


def test_keyframes_declared_without_data_are_not_counted(tmp_path):
    builder = GltfBuilder()
    builder.add_animation("walk", keyframes=2, channels=2)
    builder.document["accessors"][0]["count"] = 10**9  # the times' accessor lies
    result = validate_bytes(tmp_path, "a.glb", builder.glb())
    assert "ANIMATION_TOO_MANY_KEYFRAMES" not in codes(result)


def test_fbx_animation_stack_over_ten_minutes_is_reported(tmp_path):
    data = binary_fbx(Scene(meshes=[cube()], animations=[("idle", 900.0), ("run", 2.0)]))
    issue = only_issue(validate_bytes(tmp_path, "a.fbx", data), "ANIMATION_TOO_LONG")
    assert issue.message.startswith("Animation idle lasts 15 min,")


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(4.31, "4.3 s"), (600, "10 min"), (1623.5, "27 min 3 s"), (7500, "2 h 5 min"), (7200, "2 h")],
)
def test_durations_read_in_hours_minutes_and_seconds(seconds, text):
    assert describe_duration(seconds) == text
