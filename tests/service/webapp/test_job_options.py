"""The ``dimensions`` option of an upload, through the real service: refused with
INVALID_DIMENSIONS when unusable, stored with the job and checked by its worker otherwise."""

from __future__ import annotations

import json

import pytest
import requests

from assetcheck.testing.shapes import box_glb
from tests.service.harness import bearer, upload, wait_for_job
from tests.service.webapp.test_uploads import assert_error

#: A model 0.6 m wide, 0.9 m high and 0.4 m deep, standing on its origin.
CHAIR = box_glb([-0.3, 0.0, -0.2], [0.3, 0.9, 0.2])


@pytest.mark.parametrize(
    ("dimensions", "says"),
    [
        ([0.6, 0.9, 0.4], "must be an object"),
        ({}, "at least one of width, height and depth"),
        ({"length": 2}, "unknown key length"),
        ({"width": "60 cm"}, "width must be a number of metres"),
        ({"height": 0}, "height must be more than 0"),
        ({"depth": -1.5}, "depth must be more than 0"),
        ({"width": 1e9}, "at most 10,000 metres"),
        ({"width": True}, "width must be a number of metres"),
    ],
)
def test_unusable_dimensions_are_refused_with_the_reason(url, key, glb, dimensions, says):
    options = json.dumps({"dimensions": dimensions})
    body = assert_error(upload(url, key, glb, options=options), 400, "INVALID_DIMENSIONS")
    assert says in body["error"]


def test_dimensions_reach_the_check_of_the_job(url, key):
    options = json.dumps({"engine": "shopify", "dimensions": {"width": 0.6, "height": 1.2}})
    accepted = upload(url, key, CHAIR, options=options)
    assert accepted.status_code == 202, accepted.text
    job_id = accepted.json()["job_id"]
    assert wait_for_job(url, key, job_id, timeout=60)["status"] == "completed"
    report = requests.get(
        f"{url}/api/v1/report/{job_id}/json", headers=bearer(key), timeout=10
    ).json()
    (group,) = [group for group in report["issues"] if group["code"] == "MODEL_DIMENSIONS_MISMATCH"]
    assert "height 90 cm instead of 1.2 m" in json.dumps(group)


def test_matching_dimensions_raise_nothing(url, key):
    options = json.dumps({"dimensions": {"width": 0.6, "height": 0.9, "depth": 0.4}})
    job_id = upload(url, key, CHAIR, options=options).json()["job_id"]
    assert wait_for_job(url, key, job_id, timeout=60)["status"] == "completed"
    report = requests.get(
        f"{url}/api/v1/report/{job_id}/json", headers=bearer(key), timeout=10
    ).json()
    assert "MODEL_DIMENSIONS_MISMATCH" not in {group["code"] for group in report["issues"]}
