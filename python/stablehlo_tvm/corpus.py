"""Reading corpora of .mlir test files: the files under some paths, and the
programs of a file (split at `// -----`, as lit's --split-input-file does)."""

from __future__ import annotations

import os
import re
from typing import Iterable


def iter_mlir_files(paths: Iterable[str]) -> list[str]:
    """Every .mlir file under the given directories, in sorted order, plus the
    given files themselves."""
    files: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in sorted(os.walk(path)):
                files += [os.path.join(root, name) for name in sorted(names) if name.endswith(".mlir")]
        else:
            files.append(path)
    return files


def split_programs(text: str) -> list[str]:
    """The non-empty pieces of a file between `// -----` separators."""
    return [chunk for chunk in re.split(r"^// -----.*$", text, flags=re.M) if chunk.strip()]
