"""Keep Hypothesis' working files out of the checkout: they go to the temp directory."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis.configuration import set_hypothesis_home_dir

set_hypothesis_home_dir(str(Path(tempfile.gettempdir()) / "five35-hypothesis"))
