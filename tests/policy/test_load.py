"""The loader reads a folder as the Memrail CLI does, and turns every bad line into an error."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from topo.audit.policy import load_emus
from tests.policy.helpers import ANATOMY


def emu_line(key: str, **extra: object) -> str:
    return json.dumps({**ANATOMY, "emu_key": key, **extra})


def write(folder: Path, name: str, *lines: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def keys(folder: Path) -> list[str]:
    return [emu.emu_key for emu in load_emus(folder).emus]


def test_reads_every_jsonl_file_in_sorted_order(tmp_path: Path) -> None:
    write(tmp_path, "b.jsonl", emu_line("k.b1"), emu_line("k.b2"))
    write(tmp_path, "a.jsonl", emu_line("k.a"))
    loaded = load_emus(tmp_path)
    assert [e.emu_key for e in loaded.emus] == ["k.a", "k.b1", "k.b2"]
    assert [Path(f).name for f in loaded.files] == ["a.jsonl", "b.jsonl"]
    assert loaded.errors == ()


def test_is_not_recursive(tmp_path: Path) -> None:
    write(tmp_path, "emus.jsonl", emu_line("k.top"))
    write(tmp_path, "nested/emus.jsonl", emu_line("k.nested"))
    assert keys(tmp_path) == ["k.top"]


def test_skips_dotfiles_the_lock_file_and_other_extensions(tmp_path: Path) -> None:
    write(tmp_path, "emus.jsonl", emu_line("k.real"))
    write(tmp_path, ".emu.lock.jsonl", '{"_meta":true,"workspace":"w","project":"p"}',
          '{"emu_key":"k.real","version":1}')
    write(tmp_path, ".draft.jsonl", emu_line("k.hidden"))
    write(tmp_path, "emus.json", emu_line("k.json"))
    write(tmp_path, "emus.jsonl.bak", emu_line("k.backup"))
    loaded = load_emus(tmp_path)
    assert [e.emu_key for e in loaded.emus] == ["k.real"]
    assert loaded.errors == ()


def test_a_directory_named_like_a_source_file_is_not_read(tmp_path: Path) -> None:
    write(tmp_path, "emus.jsonl", emu_line("k.real"))
    (tmp_path / "folder.jsonl").mkdir()
    assert load_emus(tmp_path).errors == ()


def test_skips_blank_and_comment_lines_and_keeps_physical_line_numbers(tmp_path: Path) -> None:
    write(tmp_path, "emus.jsonl", "# policies", "", "   ", emu_line("k.one"),
          "  # indented comment", "\t", emu_line("k.two"))
    loaded = load_emus(tmp_path)
    assert [(e.emu_key, e.location.line) for e in loaded.emus] == [("k.one", 4), ("k.two", 7)]
    assert loaded.errors == ()


def test_windows_line_endings_and_a_byte_order_mark_are_harmless(tmp_path: Path) -> None:
    (tmp_path / "emus.jsonl").write_bytes(
        ("\ufeff" + emu_line("k.one") + "\r\n" + emu_line("k.two") + "\r\n").encode("utf-8"))
    loaded = load_emus(tmp_path)
    assert [e.emu_key for e in loaded.emus] == ["k.one", "k.two"]
    assert loaded.errors == ()


def test_bad_json_is_an_error_with_file_line_and_column(tmp_path: Path) -> None:
    write(tmp_path, "emus.jsonl", emu_line("k.ok"), '{"emu_key": "k.bad",}', emu_line("k.after"))
    loaded = load_emus(tmp_path, root=tmp_path)
    assert [e.emu_key for e in loaded.emus] == ["k.ok", "k.after"]
    (error,) = loaded.errors
    assert (error.location.file, error.location.line) == ("emus.jsonl", 2)
    assert error.message.startswith("Invalid JSON in emus.jsonl:2: ")
    assert "(column 21)" in error.message


def test_nan_is_not_json(tmp_path: Path) -> None:
    write(tmp_path, "emus.jsonl", '{"emu_key": "k.nan", "confidence": NaN}')
    (error,) = load_emus(tmp_path).errors
    assert "NaN is not valid JSON" in error.message


@pytest.mark.parametrize("line, kind", [("[1, 2]", "an array"), ('"text"', "a string"),
                                        ("42", "a number"), ("null", "`null`")])
def test_a_line_that_is_not_an_object_is_an_error(tmp_path: Path, line: str, kind: str) -> None:
    write(tmp_path, "emus.jsonl", line)
    loaded = load_emus(tmp_path)
    assert loaded.emus == ()
    (error,) = loaded.errors
    assert error.location.line == 1
    assert f"line is {kind}, not a JSON object" in error.message


def test_duplicate_key_across_files_names_both_places(tmp_path: Path) -> None:
    write(tmp_path, "a.jsonl", emu_line("k.same"))
    write(tmp_path, "b.jsonl", "# x", emu_line("k.same", state="active"))
    loaded = load_emus(tmp_path, root=tmp_path)
    assert [(e.emu_key, e.location.file) for e in loaded.emus] == [("k.same", "a.jsonl")]
    (error,) = loaded.errors
    assert (error.location.file, error.location.line) == ("b.jsonl", 2)
    assert error.message == "Duplicate emu_key 'k.same' in a.jsonl:1 and b.jsonl:2"


def test_duplicate_key_within_one_file(tmp_path: Path) -> None:
    write(tmp_path, "emus.jsonl", emu_line("k.same"), emu_line("k.other"), emu_line("k.same"))
    loaded = load_emus(tmp_path, root=tmp_path)
    assert [e.emu_key for e in loaded.emus] == ["k.same", "k.other"]
    assert [e.message for e in loaded.errors] == [
        "Duplicate emu_key 'k.same' in emus.jsonl:1 and emus.jsonl:3"]


def test_objects_without_a_string_key_are_loaded_for_the_schema_to_judge(tmp_path: Path) -> None:
    write(tmp_path, "emus.jsonl", '{"trigger": "x"}', '{"emu_key": 7, "trigger": "y"}')
    loaded = load_emus(tmp_path)
    assert [e.emu_key for e in loaded.emus] == ["", ""]  # never "duplicates" of each other
    assert loaded.errors == ()
    assert loaded.emus[0].label.startswith("<no emu_key at ")


def test_missing_directory_is_an_error_not_an_exception(tmp_path: Path) -> None:
    loaded = load_emus(tmp_path / "nope", root=tmp_path)
    assert loaded.emus == () and loaded.files == ()
    (error,) = loaded.errors
    assert error.location.file == "nope" and error.location.line == 0
    assert "does not exist" in error.message
    assert str(error) == "nope: EMU directory does not exist"


def test_a_file_instead_of_a_directory_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "emus.jsonl", emu_line("k.a"))
    (error,) = load_emus(path).errors
    assert "is not a directory" in error.message


def test_a_directory_without_jsonl_files_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, "emus.json", emu_line("k.a"))
    (error,) = load_emus(tmp_path).errors
    assert "no *.jsonl files" in error.message


def test_non_utf8_line_is_an_error_and_the_other_lines_still_load(tmp_path: Path) -> None:
    (tmp_path / "emus.jsonl").write_bytes(
        emu_line("k.one").encode() + b'\n{"emu_key": "caf\xe9"}\n' + emu_line("k.two").encode())
    loaded = load_emus(tmp_path)
    assert [e.emu_key for e in loaded.emus] == ["k.one", "k.two"]
    (error,) = loaded.errors
    assert error.location.line == 2
    assert "not UTF-8" in error.message and "0xe9" in error.message


def test_unreadable_file_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "emus.jsonl", emu_line("k.a"))
    write(tmp_path, "more.jsonl", emu_line("k.b"))
    real_open = os.open

    def refuse(path, *args, **kwargs):  # chmod 0 does not stop root, so refuse in Python
        if Path(path).name == "emus.jsonl":
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    loaded = load_emus(tmp_path)
    assert [e.emu_key for e in loaded.emus] == ["k.b"]
    (error,) = loaded.errors
    assert error.message == "cannot read file (permission denied)"   # the bounded reader's wording


def test_file_names_are_relative_to_root_with_forward_slashes(tmp_path: Path) -> None:
    write(tmp_path, "app/emus/emus.jsonl", emu_line("k.a"))
    loaded = load_emus(tmp_path / "app" / "emus", root=tmp_path)
    assert loaded.files == ("app/emus/emus.jsonl",)
    assert loaded.emus[0].location.file == "app/emus/emus.jsonl"


def test_emu_fields_are_typed_views_of_the_raw_object(tmp_path: Path) -> None:
    write(tmp_path, "emus.jsonl", emu_line("k.a"),
          json.dumps({"emu_key": "k.b", "trigger": 3, "action": "x", "policy": [],
                      "decision_point": None}))
    first, second = load_emus(tmp_path).emus
    assert first.decision_point == "support.triage" and first.state == "shadow"
    assert first.action["type"] == "tool_call" and first.policy["priority"] == 9
    assert first.raw == {**ANATOMY, "emu_key": "k.a"}
    assert (second.trigger, second.action, second.policy, second.decision_point) == (
        None, {}, {}, None)
    assert "decision_point" in second.raw  # explicit null (clears the binding) is kept in raw
