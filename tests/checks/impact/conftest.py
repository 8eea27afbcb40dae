"""The impact tests' shared fixture: the embedded spec, loaded once per module."""

from __future__ import annotations

import pytest
from five35.spec import Spec, load_spec


@pytest.fixture(scope="module")
def spec() -> Spec:
    return load_spec()
