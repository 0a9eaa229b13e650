"""CM106: which digests are prompt cache keys, how keys are rebuilt, and how it meets CM104."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from helpers import Cli, write_tree

from claude_migrate.analysis.cache_keys.rendering import render_key
from claude_migrate.analysis.context import FileContext
from claude_migrate.core.settings import FileSettings
from claude_migrate.core.source import SourceText
from claude_migrate.engine.fixer import apply_edits
from claude_migrate.policy.config import ConfigError, PolicyLoader

TEMPLATE = "claude:{anthropic_version}:{stream}:{key}"

CACHED_ANSWER = """\
import hashlib

import redis
from anthropic import Anthropic

client = Anthropic()
cache = redis.Redis()


def answer(question: str) -> str:
    key = "answers:" + hashlib.sha256(question.encode()).hexdigest()
    hit = cache.get(key)
    if hit is not None:
        return hit.decode()
    message = client.messages.create(model="claude-haiku-4-5", max_tokens=64, messages=[])
    cache.set(key, message.content[0].text)
    return message.content[0].text
"""


def test_key_waits_for_the_streaming_rewrite_then_says_stream(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app.py": CACHED_ANSWER})
    cli = Cli(tmp_path)
    before = cli.json("check", "--select", "CM104,CM106")
    cache_finding = next(d for d in before["diagnostics"] if d["code"] == "CM106")
    # The call does not stream yet and CM104 will rewrite it: keying it "nostream" now would
    # be wrong after that rewrite, so CM106 offers its fix only once the call streams.
    assert "fix" not in cache_finding or cache_finding["fix"] is None
    assert "no fix until the call streams (CM104)" in cache_finding["message"]
    result = cli("fix", "--unsafe-fixes", "--select", "CM104,CM106")
    assert result.exit_code == 0, result.output
    fixed = (tmp_path / "app.py").read_text(encoding="utf-8")
    assert 'key = "claude:2023-06-01:stream:answers:" + hashlib.sha256(' in fixed
    assert "with client.messages.stream(" in fixed
    assert cli("check", "--select", "CM104,CM106").exit_code == 0


def test_without_cm104_a_non_streaming_call_is_keyed_nostream(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app.py": CACHED_ANSWER})
    result = Cli(tmp_path)("fix", "--unsafe-fixes", "--select", "CM106")
    assert result.exit_code == 0, result.output
    assert '"claude:2023-06-01:nostream:answers:"' in (tmp_path / "app.py").read_text("utf-8")


def test_message_says_the_new_key_invalidates_existing_entries(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app.py": CACHED_ANSWER.replace("messages.create(", "messages.stream(")})
    data = Cli(tmp_path).json("check", "--select", "CM106")
    [finding] = data["diagnostics"]
    assert finding["line"] == 11
    assert "no API-version and stream components" in finding["message"]
    assert "invalidates existing cache entries" in finding["message"]
    assert "invalidates existing cache entries" in finding["fix"]["description"]


def test_cache_module_that_never_names_claude_is_checked(tmp_path: Path) -> None:
    # The prefilter must let a cache layer through on its digest alone.
    source = (
        "import hashlib\nimport json\n\nimport redis\n\nstore = redis.Redis()\n\n\n"
        "def cache_key(messages):\n"
        "    return hashlib.sha256(json.dumps(messages).encode()).hexdigest()\n"
    )
    write_tree(tmp_path, {"cache.py": source})
    data = Cli(tmp_path).json("check")
    assert [(d["line"], d["code"]) for d in data["diagnostics"]] == [(10, "CM106")]
    assert "no fix: no Claude call in the key's function" in data["diagnostics"][0]["message"]


def rebuilt(expression: str, template: str = TEMPLATE) -> str:
    source = f"key = {expression}\n"
    module = cst.parse_module(source)
    ctx = FileContext("x.py", SourceText(source), module, FileSettings(frozenset(), ()))
    node = module.body[0].body[0].value  # type: ignore[attr-defined]
    edit = render_key(ctx, node, template, "2023-06-01", "stream")
    assert edit is not None
    fixed = apply_edits(source, [edit])
    cst.parse_module(fixed)
    return fixed.removeprefix("key = ").rstrip("\n")


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("h.hexdigest()", 'f"claude:2023-06-01:stream:{h.hexdigest()}"'),
        ('f"chat:{d}"', 'f"claude:2023-06-01:stream:chat:{d}"'),
        ("f'chat:{d}'", "f'claude:2023-06-01:stream:chat:{d}'"),
        ('"chat:" + d', '"claude:2023-06-01:stream:chat:" + d'),
        ("hash(p)", 'f"claude:2023-06-01:stream:{hash(p)}"'),
        (
            'h(p.encode("utf-8")).hexdigest()',
            "f'claude:2023-06-01:stream:{h(p.encode(\"utf-8\")).hexdigest()}'",
        ),
        # Both quotes inside: no f-string can hold it before Python 3.12.
        ("g(\"a\", 'b')", '"claude:2023-06-01:stream:" + str(g("a", \'b\'))'),
        ("h(\n    p\n).hexdigest()", '"claude:2023-06-01:stream:" + h(\n    p\n).hexdigest()'),
    ],
)
def test_key_is_rebuilt_from_the_template(expression: str, expected: str) -> None:
    assert rebuilt(expression) == expected


def test_template_text_after_the_key_goes_into_the_last_literal() -> None:
    assert rebuilt('"a:" + d + ":z"', "{key}/{anthropic_version}/{stream}") == (
        '"a:" + d + ":z/2023-06-01/stream"'
    )


def test_braces_in_the_template_text_stay_literal_in_an_fstring() -> None:
    assert rebuilt('f"k:{d}"', "{{v}}{anthropic_version}:{stream}:{key}") == (
        'f"{{v}}2023-06-01:stream:k:{d}"'
    )


@pytest.mark.parametrize(
    ("table", "key", "expected"),
    [
        ('template = "claude:{anthropic_version}:{stream}"', "cache-key.template", "one {key}"),
        ('template = "{key}:{model}"', "cache-key.template", "one {key}"),
        ('require = ["model"]', "cache-key.require", "anthropic_version, stream"),
        (
            'template = "claude:{stream}:{key}"',
            "cache-key.template",
            "missing {anthropic_version}",
        ),
    ],
)
def test_policy_mistakes_name_the_key(tmp_path: Path, table: str, key: str, expected: str) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": f"[cache-key]\n{table}\n"})
    with pytest.raises(ConfigError) as error:
        PolicyLoader(cwd=tmp_path).for_path(tmp_path / "a.py").settings_for(tmp_path / "a.py")
    assert error.value.key == key
    assert expected in str(error.value)
    assert "claude-migrate.toml:2" in str(error.value)


def test_an_empty_require_turns_the_rule_off(tmp_path: Path) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": "[cache-key]\nrequire = []\ntemplate = '{key}'\n"})
    policy = PolicyLoader(cwd=tmp_path).for_path(tmp_path / "a.py")
    assert "CM106" not in policy.settings_for(tmp_path / "a.py").codes


def test_a_cache_of_compiled_templates_is_not_reported(tmp_path: Path) -> None:
    # A module that names no Claude and uses no shared store: its dict holds nothing shown to
    # be a model's answers.
    source = (
        "import hashlib\n\nimport jinja2\n\n_template_cache = {}\n\n\n"
        "def compiled(prompt_template: str) -> jinja2.Template:\n"
        "    key = hashlib.sha256(prompt_template.encode()).hexdigest()\n"
        "    if key not in _template_cache:\n"
        "        _template_cache[key] = jinja2.Template(prompt_template)\n"
        "    return _template_cache[key]\n"
    )
    write_tree(tmp_path, {"templates.py": source})
    assert Cli(tmp_path).json("check", "--select", "CM106")["diagnostics"] == []


@pytest.mark.xfail(
    strict=True,
    reason="CM106 cannot tell what a cache stores: in a module that calls Claude, a cache of "
    "compiled prompt templates keyed by the template's hash looks like a cache of answers",
)
def test_a_cache_of_compiled_templates_beside_a_claude_call_is_not_reported(
    tmp_path: Path,
) -> None:
    source = (
        "import hashlib\n\nimport anthropic\nimport jinja2\n\n_template_cache = {}\n\n\n"
        "def compiled(prompt_template: str) -> jinja2.Template:\n"
        "    key = hashlib.sha256(prompt_template.encode()).hexdigest()\n"
        "    if key not in _template_cache:\n"
        "        _template_cache[key] = jinja2.Template(prompt_template)\n"
        "    return _template_cache[key]\n"
    )
    write_tree(tmp_path, {"templates.py": source})
    assert Cli(tmp_path).json("check", "--select", "CM106")["diagnostics"] == []


@pytest.mark.xfail(
    strict=True,
    reason="keys are followed through names and module functions, not through methods "
    "(`self._key(...)`) whose name does not say cache key",
)
def test_a_key_returned_by_a_method_is_reported(tmp_path: Path) -> None:
    source = (
        "import hashlib\n\nimport redis\n\n\nclass Answers:\n"
        "    def __init__(self) -> None:\n        self.store = redis.Redis()\n\n"
        "    def _key(self, prompt: str) -> str:\n"
        "        return hashlib.sha256(prompt.encode()).hexdigest()\n\n"
        "    def get(self, prompt: str) -> bytes | None:\n"
        "        return self.store.get(self._key(prompt))\n"
    )
    write_tree(tmp_path, {"answers.py": source})
    found = Cli(tmp_path).json("check", "--select", "CM106")["diagnostics"]
    assert [(d["line"], d["code"]) for d in found] == [(11, "CM106")]


def test_a_digest_wrapped_in_a_key_object_is_reported(tmp_path: Path) -> None:
    source = (
        "import hashlib\n\nimport anthropic\nimport redis\n\n"
        "client = anthropic.Anthropic()\nstore = redis.Redis()\n\n\n"
        "class PromptKey:\n"
        "    def __init__(self, prompt: str) -> None:\n"
        "        self.digest = hashlib.sha256(prompt.encode()).hexdigest()\n\n"
        "    def __str__(self) -> str:\n"
        '        return f"answers:{self.digest}"\n\n\n'
        "def answer(prompt: str) -> str:\n"
        "    key = PromptKey(prompt)\n"
        "    cached = store.get(str(key))\n"
        "    if cached is not None:\n"
        "        return cached.decode()\n"
        "    reply = client.messages.create(\n"
        '        model="claude-sonnet-4-5", max_tokens=256,'
        ' messages=[{"role": "user", "content": prompt}]\n'
        "    )\n"
        "    store.set(str(key), reply.content[0].text)\n"
        "    return reply.content[0].text\n"
    )
    write_tree(tmp_path, {"answers.py": source})
    found = Cli(tmp_path).json("check", "--select", "CM106")["diagnostics"]
    assert [(d["line"], d["code"]) for d in found] == [(20, "CM106")], found
    assert "no API-version and stream components" in found[0]["message"]
    assert "PromptKey.__str__" in found[0]["message"]
    assert "fix" not in found[0] or not found[0]["fix"]


def _key_object(data: str, rendered: str, use: str) -> str:
    """A module whose `Key(<data>)` keeps a digest and renders it in `__str__`."""
    return (
        "import hashlib\nimport logging\nfrom pathlib import Path\n\nimport redis\n\n"
        "store = redis.Redis()\n\n\n"
        "class Key:\n"
        "    def __init__(self, data: bytes) -> None:\n"
        "        self.digest = hashlib.sha256(data).hexdigest()\n\n"
        "    def __str__(self) -> str:\n"
        f"        return {rendered}\n\n\n"
        "def answer(prompt: str, path: Path) -> bytes | None:\n"
        f"    key = Key({data})\n"
        f"    {use}\n"
        "    return store.get(prompt)\n"
    )


def test_a_key_object_of_file_data_unused_as_a_key_or_complete_is_not_reported(
    tmp_path: Path,
) -> None:
    prompt, rendering = "prompt.encode()", 'f"answers:{self.digest}"'
    write_tree(
        tmp_path,
        {
            # A digest of a file's bytes is a fingerprint, not a prompt.
            "files.py": _key_object("path.read_bytes()", rendering, "store.get(str(key))"),
            # The prompt's digest is only logged, never a cache's key.
            "logged.py": _key_object(prompt, rendering, "logging.info(str(key))"),
            # `__str__` already names the API version and the stream flag.
            "complete.py": _key_object(
                prompt, 'f"claude:2023-06-01:stream:{self.digest}"', 'store.get(f"{key}")'
            ),
            # The same object keying the cache with an incomplete text is reported.
            "reported.py": _key_object(prompt, rendering, 'store.get(f"{key}")'),
        },
    )
    found = Cli(tmp_path).json("check", "--select", "CM106")["diagnostics"]
    assert [(Path(d["path"]).name, d["line"]) for d in found] == [("reported.py", 20)], found
