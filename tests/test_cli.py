"""The command line: version, listing, scaffolding, one-ship kits, catalog, docs."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner

from generator import __version__
from generator.cli.main import main
from tests.pdftext import open_pages, page_texts

ROOT = Path(__file__).resolve().parent.parent


def invoke(args: list[str], cwd: Path) -> tuple[int, str, str]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, args, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def test_version(tmp_path: Path) -> None:
    code, out, _ = invoke(["--version"], tmp_path)
    assert code == 0 and out.strip() == f"quarterdeck, version {__version__}"


def test_list_shows_rulesets_scenarios_and_classes(tmp_path: Path) -> None:
    code, out, _ = invoke(["list"], tmp_path)
    assert code == 0
    for text in ("naval-action", "savo-island", "second-sirte", "komandorski", "sunda-strait",
                 "new-orleans", "takao"):
        assert text in out


def test_designer_quickstart_round_trip(tmp_path: Path) -> None:
    code, out, _ = invoke(["new-class", "my-destroyer", "--nation", "UK", "--out", "mydata"],
                          tmp_path)
    assert code == 0, out
    scaffold = tmp_path / "mydata" / "my-destroyer.yaml"
    text = scaffold.read_text()
    assert "nation: UK" in text and text.count("#") > 10  # commented for the designer
    code, out, err = invoke(["check", "mydata"], tmp_path)
    assert code == 2 and "found placeholder" in err  # untouched, it cannot pass
    from tests.scaffolds import fill

    scaffold.write_text(fill(text, "My Destroyer"))
    code, out, err = invoke(["check", "mydata"], tmp_path)
    assert code == 0, err
    # Refuses to overwrite the designer's work.
    code, _, err = invoke(["new-class", "my-destroyer", "--out", "mydata"], tmp_path)
    assert code == 2 and "already exists" in err
    code, out, err = invoke(["build", "--class", "my-destroyer", "--data", "mydata",
                             "--out", "out", "--paper", "letter"], tmp_path)
    assert code == 0, err
    pdf_path = tmp_path / "out" / "class-my-destroyer" / "naval-action" / "my-destroyer.pdf"
    pages = open_pages(pdf_path)
    assert "FIRST SHIP" in pages[1].extract_text()  # after the print note
    assert (pages[0].width, pages[0].height) == (612, 792)


def test_user_data_overrides_bundled_class(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    source = ROOT / "shipdata/classes/us/new-orleans.yaml"
    (data / "new-orleans.yaml").write_text(
        source.read_text().replace("speed_kn: 32.7", "speed_kn: 31.1"))
    code, out, err = invoke(["build", "savo-island", "--data", "data", "--out", "out", "-q"],
                            tmp_path)
    assert code == 0, err
    assert "replaces the bundled ship-class 'new-orleans'" in err
    text = "\n".join(page_texts(tmp_path / "out/savo-island/allied.pdf"))
    assert "31.1" in text


def test_catalog_lists_every_class(tmp_path: Path) -> None:
    from generator.data.library import load_library

    code, out, err = invoke(["catalog", "--out", "out"], tmp_path)
    assert code == 0, err
    text = "\n".join(page_texts(tmp_path / "out/catalog.pdf"))
    for entry in load_library().classes_of("naval-action").values():
        # Names may wrap inside a cell; check their first word.
        assert entry.model.name.split()[0] in text, entry.model.name


def test_docs_reference_is_current(tmp_path: Path) -> None:
    code, out, err = invoke(["docs", "--check", "--out", str(ROOT / "docs")], ROOT)
    assert code == 0, err + out
