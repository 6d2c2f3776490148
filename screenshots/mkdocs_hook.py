"""Serve the top-level screenshots/ in the docs site (mkdocs.yml names this file under `hooks`).

The pictures live beside the package (the design card's layout), outside mkdocs' `docs_dir`, and
the pages link them as `../screenshots/NAME.svg` so that they show on GitHub too. mkdocs serves
only files under `docs_dir` and rejects links that leave it, so this hook adds every picture to
the site as `screenshots/NAME` and rewrites those links to it before the links are checked.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

HERE = Path(__file__).resolve().parent
SERVED = (".svg", ".html")
_LINK = re.compile(r"\]\((?:\.\./)+screenshots/")


def on_files(files: Files, config: MkDocsConfig, **_: Any) -> Files:
    for picture in sorted(HERE.iterdir()):
        if picture.suffix in SERVED and picture.is_file():
            files.append(
                File(
                    f"{HERE.name}/{picture.name}",
                    src_dir=str(HERE.parent),
                    dest_dir=config.site_dir,
                    use_directory_urls=config.use_directory_urls,
                )
            )
    return files


def on_page_markdown(markdown: str, page: Page, **_: Any) -> str:
    # A page at the top of docs_dir reaches the site's screenshots/ as `screenshots/`; one in a
    # sub-folder needs a `../` per level, as its link to the top-level folder had one more.
    up = "../" * page.file.src_uri.count("/")
    return _LINK.sub(f"]({up}screenshots/", markdown)
