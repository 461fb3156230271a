"""Licences and citation: what readers may reuse, and how to cite the book.

The code is Apache-2.0 (``LICENSE``), the text and figures CC-BY-4.0
(``LICENSE-text``); the README, ``pyproject.toml``, the site's footer and the
front page say the same, and ``CITATION.cff`` is valid Citation File Format
(``cffconvert --validate``, installed on first use into a virtualenv of its own
under ``_build/``: it pins an old jsonschema that Jupyter cannot share).
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
CFFCONVERT = "cffconvert==2.0.0"
TOOL_VENV = ROOT / "_build" / "tools" / "cffconvert"


def _text(name):
    return (ROOT / name).read_text(encoding="utf-8")


def _pyproject(key):
    match = re.search(rf'^{key}\s*=\s*(.+)$', _text("pyproject.toml"), re.MULTILINE)
    return match.group(1).strip() if match else None


def test_licence_files_hold_the_two_licences():
    code = _text("LICENSE")
    assert code.lstrip().startswith("Apache License")
    assert "Version 2.0, January 2004" in code
    assert "END OF TERMS AND CONDITIONS" in code
    text = _text("LICENSE-text")
    assert text.startswith("Attribution 4.0 International")
    assert "Section 1 -- Definitions." in text
    assert "Creative Commons Attribution 4.0 International Public License" in text


def test_pyproject_declares_the_licence_as_spdx_with_its_files():
    assert _pyproject("license") == '"Apache-2.0"'
    assert _pyproject("license-files") == '["LICENSE", "LICENSE-text"]'
    assert not re.search(r"License ::", _text("pyproject.toml"))  # PEP 639: no both


def test_readme_and_front_page_state_both_licences_and_how_to_cite():
    readme = _text("README.md")
    assert "Apache License 2.0 (`LICENSE`)" in readme
    assert "CC-BY-4.0, `LICENSE-text`" in readme
    assert "CITATION.cff" in readme
    intro = _text("intro.md")
    assert "**How to cite**" in intro and "CITATION.cff" in intro
    assert "Apache" in intro and "CC BY 4.0" in intro
    version = _pyproject("version").strip('"')
    assert f"version\n  {version}" in intro or f"version {version}" in intro


def test_site_footer_separates_our_licences_from_keras_attribution():
    config = yaml.safe_load(_text("_config.yml"))
    assert config["copyright"] == ""  # no bare "© Copyright 2025" line
    footer = config["html"]["extra_footer"]
    ours, keras = footer.split("the Keras authors")
    assert "The kerasmini authors" in ours
    assert "Apache License 2.0" in ours and "CC BY 4.0" in ours
    assert "blob/main/LICENSE\"" in ours and "blob/main/LICENSE-text\"" in ours
    assert "keras-team/keras" in keras and "Apache License 2.0" in keras


def test_citation_agrees_with_the_book_and_the_package():
    cff = yaml.safe_load(_text("CITATION.cff"))
    config = yaml.safe_load(_text("_config.yml"))
    assert cff["cff-version"] == "1.2.0"
    assert cff["title"] == config["title"]
    assert cff["version"] == _pyproject("version").strip('"')
    assert cff["repository-code"] == config["repository"]["url"]
    assert cff["license"] == ["Apache-2.0", "CC-BY-4.0"]
    assert [a["name"] for a in cff["authors"]] == [config["author"]]
    keras = cff["references"][0]
    assert keras["title"] == "Keras" and keras["license"] == "Apache-2.0"


def _cffconvert():
    """cffconvert in its own virtualenv (created once; pip's cache is used)."""
    exe = TOOL_VENV / "bin" / "cffconvert"
    if exe.exists():
        return exe
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--clear", str(TOOL_VENV)], check=True)
    install = subprocess.run(
        [str(TOOL_VENV / "bin" / "python"), "-m", "pip", "install", "-q",
         "--disable-pip-version-check", CFFCONVERT], capture_output=True, text=True)
    if install.returncode != 0:
        pytest.fail(f"could not install {CFFCONVERT}:\n{install.stderr[-2000:]}")
    return exe


def test_citation_cff_is_valid_per_cffconvert():
    result = subprocess.run([str(_cffconvert()), "--validate", "-i",
                             str(ROOT / "CITATION.cff")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "valid" in result.stdout


def test_cffconvert_refuses_a_broken_citation(tmp_path):
    broken = tmp_path / "CITATION.cff"
    broken.write_text(_text("CITATION.cff").replace("cff-version: 1.2.0\n", "")
                      .replace("  - name: \"The kerasmini authors\"\n",
                               "  - nickname: 3\n"), encoding="utf-8")
    result = subprocess.run([str(_cffconvert()), "--validate", "-i", str(broken)],
                            capture_output=True, text=True)
    assert result.returncode != 0
