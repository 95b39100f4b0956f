"""The committed dashboard bundle is the build of its sources, never a hand-edited copy.

``scripts/build_dashboard.sh`` bundles ``frontend/src`` into
``src/engram/dashboard/static/app.js`` and ``app.css`` and stamps the sources and the
outputs in ``static/bundle.sha256``. A source changed without a rebuild, or an output
edited by hand, no longer matches its stamp.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAMP = ROOT / "src/engram/dashboard/static/bundle.sha256"


def stamped() -> dict[str, str]:
    out: dict[str, str] = {}
    for line in STAMP.read_text().splitlines():
        digest, path = line.split(maxsplit=1)
        out[path] = digest
    return out


def test_every_source_and_output_matches_its_stamp() -> None:
    stamp = stamped()
    sources = {str(p.relative_to(ROOT)) for p in (ROOT / "frontend/src").iterdir()}
    assert sources, "frontend/src has no sources"
    unstamped = sources - set(stamp)
    assert not unstamped, f"new sources not in the build: {sorted(unstamped)}; run make dashboard"
    for path, digest in stamp.items():
        assert (ROOT / path).exists(), f"{path} is stamped but missing; run make dashboard"
        actual = hashlib.sha256((ROOT / path).read_bytes()).hexdigest()
        assert actual == digest, (
            f"{path} differs from the last build: edit frontend/src and run make dashboard "
            "(scripts/build_dashboard.sh), never the built files"
        )


def test_the_page_links_the_built_files_and_no_source_is_copied_beside_them() -> None:
    static = ROOT / "src/engram/dashboard/static"
    page = (static / "index.html").read_text()
    assert 'src="static/app.js"' in page
    assert 'href="static/app.css"' in page
    # The stylesheet is bundled (minified) from frontend/src/style.css, not copied.
    built = (static / "app.css").read_text()
    source = (ROOT / "frontend/src/style.css").read_text()
    assert built != source and len(built) < len(source)
    assert not (ROOT / "frontend/src/index.html").exists()
